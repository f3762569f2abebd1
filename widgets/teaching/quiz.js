// Quiz widget: shows the questions the kernel drew; a click on a choice sends the answer as an intent.
// After an answer the keyboard moves on to the next question's first choice (the answered ones are
// disabled), or to the title after the last; a fresh view (the record re-displays the output) and a
// redraw put it back there through the shared memory (common.js).
function nextFocus(model, number) {
  const next = (model.get("questions") || []).find((q) => q.number > number && (q.chosen === null || q.chosen === undefined));
  return next ? `q${next.number}-0` : "title";
}

function draw(model, root) {
  root.replaceChildren();
  root.classList.add("gk-quiz");
  const title = el("div", "gk-q-title", model.get("title"));
  title.tabIndex = -1;
  title.dataset.focusId = "title";
  root.append(title);
  const memory = memoryOf(model);
  for (const q of model.get("questions") || []) {
    const box = el("div", "gk-q");
    box.dataset.number = q.number;
    box.append(el("div", "gk-q-prompt", q.prompt));
    const choices = el("div", "gk-q-choices");
    q.choices.forEach((text, index) => {
      const button = el("button", "gk-q-choice" + (q.chosen === index ? " gk-q-chosen" : ""), text);
      button.dataset.choice = index;
      button.disabled = q.chosen !== null && q.chosen !== undefined;
      button.dataset.focusId = `q${q.number}-${index}`;
      button.addEventListener("click", () => {
        memory.focus = nextFocus(model, q.number);
        model.send({ action: "answer", number: q.number, choice: index });
      });
      choices.append(button);
    });
    box.append(choices);
    if (q.verdict) box.append(el("div", "gk-q-verdict " + (q.correct ? "gk-q-right" : "gk-q-wrong"), q.verdict));
    if (q.steps.length) {
      const steps = el("ol", "gk-q-steps");
      for (const step of q.steps) {
        const item = el("li", "gk-q-step", step.text + " ");
        item.dataset.rule = step.rule;
        const source = el("span", "gk-q-source", step.source ? " " + step.source : "");
        if (step.seed) source.title = step.seed;  // the seed's lines: for the GM and developers
        item.append(el("span", "gk-q-rule", step.rule), source);
        if (step.why) item.append(el("div", "gk-q-why", step.why));  // a rule's text once, not per step
        steps.append(item);
      }
      box.append(steps);
      if (q.odds) box.append(el("div", "gk-q-odds", q.odds));
    }
    root.append(box);
  }
  if (model.get("error")) root.append(el("div", "gk-q-error", model.get("error")));
  const active = document.activeElement;
  if (memory.focus && root.isConnected && (!active || active === document.body || !active.isConnected
      || (active.disabled && root.contains(active)))) {
    root.querySelector(`[data-focus-id="${CSS.escape(memory.focus)}"]`)?.focus();
  }
}

export default withPicture({
  render({ model, el: root }) {
    keepFocus(root, memoryOf(model));
    const redraw = () => draw(model, root);
    for (const name of ["questions", "title", "error"]) model.on("change:" + name, redraw);
    redraw();
  },
});
