// The table dashboard (%table): every character of the session by game, whose turn it is, and one
// click per common action. The facts arrive as plain data from session.table_view(); every click is
// a message {action, ...} the kernel turns into one session call. No rules here.
function actionButton(cls, text, onClick) {
  const node = el("button", `gk-button ${cls}`, text);
  node.type = "button";
  node.addEventListener("click", onClick);
  return node;
}

function render({ model, el: root }) {
  // What the GM typed or picked: kept on the model (client side only, never saved to the kernel),
  // so it survives redraws and the new views a notebook update creates.
  let kept = model.get("_gk_kept");
  if (!kept) { kept = {}; model.set("_gk_kept", kept); }
  const draw = () => {
    const focused = document.activeElement && root.contains(document.activeElement)
      ? document.activeElement.dataset.focus : "";
    root.replaceChildren();
    const view = model.get("view") || {};
    const texts = model.get("texts") || {};
    const labels = model.get("labels") || {};
    const b = labels.buttons || {};
    const box = el("div", "gk-table-dashboard");
    box.appendChild(el("div", "gk-table-title", labels.title || ""));
    box.appendChild(el("div", "gk-table-status", texts.header || ""));
    const tools = el("div", "gk-table-tools");
    const send = (payload) => model.send(payload);
    if (view.fight) {
      tools.append(actionButton("gk-table-next", b.next || "", () => send({ action: "next" })),
        actionButton("gk-table-end-fight", b.end_fight || "", () => send({ action: "end_fight" })));
    }
    if ((view.gamma || []).length) {
      tools.appendChild(view.encounter
        ? actionButton("gk-table-encounter-end", b.encounter_end || "", () => send({ action: "encounter_end" }))
        : actionButton("gk-table-encounter-start", b.encounter_start || "",
          () => send({ action: "encounter_start" })));
    }
    if ((view.mtg || []).length) {
      tools.appendChild(actionButton("gk-table-scene", b.scene || "", () => send({ action: "scene" })));
    }
    for (const node of tools.querySelectorAll("button")) node.dataset.focus = node.className;
    box.appendChild(tools);
    const sections = texts.sections || [];
    if (!sections.length) box.appendChild(el("em", "", labels.empty || ""));
    for (const [title, heads, rows] of sections) {
      const game = title === labels.gurps ? "gurps" : title === labels.gamma ? "gamma" : "mtg";
      const facts = view[game] || [];
      const section = el("div", `gk-table-section gk-table-${game}`);
      section.appendChild(el("div", "gk-table-subtitle", title));
      const table = el("table", "gk-table-grid");
      const head = el("tr");
      for (const h of heads) head.appendChild(el("th", "", h));
      if (game === "mtg") head.appendChild(el("th", "", b.check || ""));
      const thead = el("thead"); thead.appendChild(head); table.appendChild(thead);
      const body = el("tbody");
      rows.forEach((cells, i) => {
        const row = facts[i] || {};
        const tr = el("tr", "gk-table-row");
        tr.dataset.name = row.name || cells[0];
        if (game === "gurps" && view.fight && view.fight.turn === row.name) tr.classList.add("gk-active");
        cells.forEach((text, j) => {
          const td = el("td", `gk-table-cell-${j}`);
          if (game === "gamma" && j === 1) {
            for (const card of row.cards || []) {
              const chip = el("span", "gk-table-card" + (card.tapped ? " gk-tapped" : "")
                + (card.overcharged ? " gk-overcharged" : ""));
              chip.dataset.uid = card.uid;
              chip.appendChild(el("span", "gk-table-card-name", card.name));
              if (card.tapped) chip.appendChild(el("span", "gk-table-mark", labels.tapped || ""));
              if (card.overcharged) chip.appendChild(el("span", "gk-table-mark", labels.overcharged || ""));
              const act = card.tapped ? "untap" : "tap";
              const tap = actionButton(`gk-table-${act}`, b[act] || act,
                () => send({ action: act, name: row.name, uid: card.uid }));
              tap.dataset.focus = `${act}-${card.uid}`;
              chip.appendChild(tap);
              if (row.flux) {
                const flux = actionButton("gk-table-flux", b.flux || "",
                  () => send({ action: "flux", name: row.name, uid: card.uid }));
                flux.dataset.focus = `flux-${card.uid}`;
                chip.appendChild(flux);
              }
              td.appendChild(chip);
            }
            if (!(row.cards || []).length) td.textContent = text;
          } else {
            td.textContent = text;
          }
          tr.appendChild(td);
        });
        if (game === "mtg") {
          const td = el("td", "gk-table-check");
          const pick = kept[row.name] || (kept[row.name] = { kind: (labels.colours || [["green"]])[0][0], difficulty: "2" });
          const colour = el("select", "gk-table-colour");
          colour.title = labels.colour || "";
          colour.dataset.focus = `colour-${row.name}`;
          for (const [key, text] of labels.colours || []) {
            const option = el("option", "", text);
            option.value = key;
            if (key === pick.kind) option.selected = true;
            colour.appendChild(option);
          }
          colour.addEventListener("change", () => { pick.kind = colour.value; });
          const difficulty = el("input", "gk-table-difficulty");
          difficulty.type = "number";
          difficulty.title = labels.difficulty || "";
          difficulty.value = pick.difficulty;
          difficulty.dataset.focus = `difficulty-${row.name}`;
          difficulty.addEventListener("input", () => { pick.difficulty = difficulty.value; });
          const check = () => send({ action: "check", name: row.name, kind: colour.value, difficulty: difficulty.value });
          for (const node of [colour, difficulty]) {
            node.addEventListener("keydown", (event) => {
              if (event.key === "Enter") { event.preventDefault(); check(); }
            });
          }
          const go = actionButton("gk-table-do-check", b.check || "", check);
          go.dataset.focus = `check-${row.name}`;
          td.append(colour, difficulty, go);
          tr.appendChild(td);
        }
        body.appendChild(tr);
      });
      table.appendChild(body);
      section.appendChild(table);
      box.appendChild(section);
    }
    const last = model.get("last");
    if (last) box.appendChild(el("div", "gk-table-last", last));
    const error = model.get("error");
    if (error) box.appendChild(el("div", "gk-error", error));
    root.appendChild(box);
    if (focused) {
      const again = root.querySelector(`[data-focus="${CSS.escape(focused)}"]`);
      if (again) again.focus();
    }
  };
  for (const name of ["view", "texts", "labels", "last", "error"]) model.on(`change:${name}`, draw);
  draw();
}

export default withPicture({ render });
