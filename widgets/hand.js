// Gamma World hand: readied alpha cards; click a card to tap/untap it, overcharge it, resolve flux.
// Every click is a message to the kernel, which calls the session (logged); no rules here.
function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function render({ model, el: root }) {
  const draw = () => {
    root.replaceChildren();
    const box = el("div", "gk-hand gk-hand-widget");
    const labels = model.get("labels") || {};
    box.appendChild(el("div", "gk-hand-title", model.get("title")));
    if (labels.options) box.appendChild(el("div", "gk-hand-options gk-muted", labels.options));
    const flux = model.get("flux_pending");
    const cards = model.get("cards") || [];
    if (flux > 0) {
      const banner = el("div", "gk-flux-banner");
      banner.appendChild(el("strong", "", `${labels.flux || "ALPHA FLUX!"} ×${flux} `));
      banner.appendChild(el("span", "", labels.flux_choose || ""));
      for (const card of cards) {
        const choice = el("button", "gk-flux-choice", card.name);
        choice.dataset.uid = card.uid;
        choice.addEventListener("click", (event) => {
          event.stopPropagation();
          model.send({ action: "flux", uid: card.uid });
        });
        banner.appendChild(choice);
      }
      box.appendChild(banner);
    }
    const row = el("div", "gk-hand-cards");
    if (cards.length === 0) row.appendChild(el("em", "", labels.empty || ""));
    for (const card of cards) {
      const slot = el("div", "gk-card-slot" + (card.tapped ? " gk-slot-tapped" : ""));
      const face = el("div", `gk-card gk-energy-${card.energy}` + (card.tapped ? " gk-card-tapped" : ""));
      face.dataset.uid = card.uid;
      face.title = card.tapped ? labels.tapped : labels.ready;
      face.appendChild(el("div", "gk-card-name", card.name));
      face.appendChild(el("div", "gk-card-energy", card.energy_label));
      if (card.can_overcharge) {
        const button = el("button", "gk-overcharge", labels.overcharge || "Overcharge");
        button.addEventListener("click", (event) => {
          event.stopPropagation();
          model.send({ action: "overcharge", uid: card.uid });
        });
        face.appendChild(button);
      }
      for (const [label, text] of card.lines) {
        const line = el("div", "gk-card-line");
        line.appendChild(el("b", "", `${label}: `));
        line.appendChild(document.createTextNode(text));
        face.appendChild(line);
      }
      const status = el("div", "gk-card-status", card.tapped ? labels.tapped : labels.ready);
      if (card.overcharged) status.textContent += ` · ${labels.overcharged}`;
      face.appendChild(status);
      face.addEventListener("click", () => model.send({ action: "tap", uid: card.uid }));
      slot.appendChild(face);
      row.appendChild(slot);
    }
    box.appendChild(row);
    box.appendChild(el("div", "gk-hand-counts", model.get("counts")));
    const last = model.get("last");
    if (last) box.appendChild(el("div", "gk-hand-last", last));
    const error = model.get("error");
    if (error) box.appendChild(el("div", "gk-error", error));
    root.appendChild(box);
  };
  draw();
  for (const name of ["title", "cards", "counts", "flux_pending", "labels", "last", "error", "encounter"]) {
    model.on(`change:${name}`, draw);
  }
}

export default { render };
