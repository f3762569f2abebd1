// Gamma World hand: readied alpha cards, each as tall as its rules text and always upright; a tapped
// card carries a "Tapped" badge. Tap/Untap and Overcharge are buttons (Overcharge only where the
// kernel says the rules allow it); a click or Enter on a card taps/untaps it; a pending flux shows a
// banner with a button per card. Every action is a message to the kernel (logged); no rules here.
// el, button, pressable, memoryOf and keepFocus come from common.js.
function render({ model, el: root }) {
  const memory = memoryOf(model);
  const draw = () => {
    const box = el("div", "gk-hand gk-hand-widget gk-widget");
    const labels = model.get("labels") || {};
    box.appendChild(el("div", "gk-hand-title", model.get("title")));
    if (labels.options) box.appendChild(houseRules("gk-hand-options", labels.options, labels.options_detail));
    const flux = model.get("flux_pending");
    const cards = model.get("cards") || [];
    if (flux > 0) {
      const banner = el("div", "gk-flux-banner");
      banner.setAttribute("role", "alert");
      banner.appendChild(el("strong", "", `${labels.flux || ""} ×${flux} `));
      banner.appendChild(el("span", "", labels.flux_choose || ""));
      for (const card of cards) {
        const choice = button(card.name, "gk-flux-choice", () => ({ action: "flux", uid: card.uid }), model);
        choice.dataset.uid = card.uid;
        choice.dataset.focusId = "flux:" + card.uid;
        banner.appendChild(choice);
      }
      box.appendChild(banner);
    }
    const row = el("div", "gk-hand-cards");
    if (cards.length === 0) row.appendChild(el("em", "", labels.empty || ""));
    for (const card of cards) {
      const face = el("div", `gk-card gk-energy-${card.energy}` + (card.tapped ? " gk-card-tapped" : ""));
      face.dataset.uid = card.uid;
      face.dataset.focusId = "card:" + card.uid;
      face.title = card.tapped ? labels.tapped : labels.ready;
      pressable(face, () => model.send({ action: "tap", uid: card.uid }));
      face.setAttribute("aria-pressed", card.tapped ? "true" : "false");
      face.setAttribute("aria-label", `${card.name}: ${card.tapped ? labels.tapped : labels.ready}`);
      face.appendChild(el("div", "gk-card-name", card.name));
      face.appendChild(el("div", "gk-card-energy", card.energy_label));
      if (card.tapped) face.appendChild(el("div", "gk-tapped-badge", labels.tapped_badge || labels.tapped));
      if (card.overcharged) face.appendChild(el("div", "gk-overcharged-badge", labels.overcharged));
      for (const [label, text] of card.lines) {
        const line = el("div", "gk-card-line");
        line.appendChild(el("b", "", `${label}: `));
        line.appendChild(document.createTextNode(text));
        face.appendChild(line);
      }
      const actions = el("div", "gk-card-actions");
      const tap = button(card.tapped ? labels.untap : labels.tap, "gk-tap", () => ({ action: "tap", uid: card.uid }), model);
      tap.dataset.focusId = "tap:" + card.uid;
      actions.appendChild(tap);
      if (card.can_overcharge) { // the kernel's answer: never offered on a used or overcharged power
        const over = button(labels.overcharge || "", "gk-overcharge",
                            () => ({ action: "overcharge", uid: card.uid }), model);
        over.dataset.focusId = "overcharge:" + card.uid;
        actions.appendChild(over);
      }
      actions.addEventListener("keydown", (event) => event.stopPropagation()); // Enter on a button is the button's
      face.appendChild(actions);
      row.appendChild(face);
    }
    box.appendChild(row);
    box.appendChild(el("div", "gk-hand-counts gk-muted", model.get("counts")));
    const last = model.get("last");
    if (last) box.appendChild(el("div", "gk-hand-last", last));
    const error = model.get("error");
    if (error) {
      const line = el("div", "gk-error", error);
      line.setAttribute("role", "alert");
      box.appendChild(line);
    }
    root.replaceChildren(box);
    keepFocus(box, memory);
  };
  draw();
  for (const name of ["title", "cards", "counts", "flux_pending", "labels", "last", "error", "encounter"]) {
    model.on(`change:${name}`, draw);
  }
}

export default withPicture({ render });
