// The GM's panel of a remote table (%table players): seats, waiting player actions, asks, latest
// player actions, secret events; each click is a message {action, ...} the kernel turns into one
// session call. No rules here.
function render({ model, el: root }) {
  const draw = () => {
    root.replaceChildren();
    const f = model.get("facts") || {}, l = model.get("labels") || {};
    const box = el("div", "gk-players");
    const button = (text, payload) => {
      const node = el("button", "gk-button", text);
      node.type = "button";
      node.addEventListener("click", () => model.send(typeof payload === "function" ? payload() : payload));
      return node;
    };
    const head = (text) => el("div", "gk-players-head", text);
    box.appendChild(el("div", "gk-title", l.title || "Players"));
    box.appendChild(head(l.seats || "Seats"));
    for (const [user, chars] of f.seats || []) box.appendChild(el("div", "gk-players-row", `${user}: ${chars.join(", ")}`));
    if (!(f.seats || []).length) box.appendChild(el("div", "gk-players-row", l.none || "none"));
    box.appendChild(head(l.pending || "Waiting"));
    for (const p of f.pending || []) {
      const row = el("div", "gk-players-row", `${p.id}: ${p.user} — ${p.action}`);
      row.append(button(l.approve || "Approve", { action: "approve", id: p.id }),
                 button(l.refuse || "Refuse", { action: "refuse", id: p.id }));
      box.appendChild(row);
    }
    const toggles = el("div", "gk-players-row");
    const approval = el("input"); approval.type = "checkbox"; approval.checked = !!f.approval;
    approval.setAttribute("aria-label", l.approval || "approval");
    approval.addEventListener("change", () => model.send({ action: "approval", on: approval.checked }));
    const label = el("label", "", ""); label.append(approval, document.createTextNode(" " + (l.approval || "")));
    toggles.append(label, button(f.disclose === "outcome" ? (l.full || "full") : (l.outcome || "outcome"),
      { action: "disclose", how: f.disclose === "outcome" ? "full" : "outcome" }));
    box.appendChild(toggles);
    box.appendChild(head(l.asks || "Asks"));
    for (const a of f.asks || []) box.appendChild(el("div", "gk-players-row", `${a.user} (${a.character}): ${a.spec}`));
    const ask = el("div", "gk-players-row");
    const user = el("input"); user.placeholder = l.user || "player"; user.setAttribute("aria-label", l.user || "player");
    const spec = el("input"); spec.placeholder = l.spec || "roll"; spec.setAttribute("aria-label", l.spec || "roll");
    ask.append(user, spec, button(l.ask || "Ask", () => ({ action: "ask", user: user.value, spec: spec.value })));
    box.appendChild(ask);
    box.appendChild(head(l.secrets || "Secret events"));
    for (const s of f.secrets || []) {
      const row = el("div", "gk-players-row", `${s.seq}: ${s.summary}`);
      row.append(button(l.reveal || "Reveal", { action: "reveal", seq: s.seq }));
      box.appendChild(row);
    }
    box.appendChild(head(l.recent || "Latest"));
    for (const r of f.recent || []) box.appendChild(el("div", "gk-players-row", `${r.seq} · ${r.by}: ${r.summary}`));
    if (model.get("error")) box.appendChild(el("div", "gk-error", model.get("error")));
    root.appendChild(box);
  };
  model.on("change:facts", draw);
  model.on("change:error", draw);
  draw();
}
export default { render };
