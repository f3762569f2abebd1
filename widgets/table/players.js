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
    box.appendChild(el("div", "gk-title", l.title || ""));
    box.appendChild(head(l.seats || ""));
    for (const [user, chars] of f.seats || []) box.appendChild(el("div", "gk-players-row", `${user}: ${chars.join(", ")}`));
    if (!(f.seats || []).length) box.appendChild(el("div", "gk-players-row", l.none || ""));
    box.appendChild(head(l.pending || ""));
    for (const p of f.pending || []) {
      const row = el("div", "gk-players-row", `${p.id}: ${p.user} — ${p.action}`);
      row.append(button(l.approve || "", { action: "approve", id: p.id }),
                 button(l.refuse || "", { action: "refuse", id: p.id }));
      box.appendChild(row);
    }
    const toggles = el("div", "gk-players-row");
    const approval = el("input"); approval.type = "checkbox"; approval.checked = !!f.approval;
    approval.setAttribute("aria-label", l.approval || "");
    approval.addEventListener("change", () => model.send({ action: "approval", on: approval.checked }));
    const label = el("label", "", ""); label.append(approval, document.createTextNode(" " + (l.approval || "")));
    toggles.append(label, button(f.disclose === "outcome" ? (l.full || "") : (l.outcome || ""),
      { action: "disclose", how: f.disclose === "outcome" ? "full" : "outcome" }));
    box.appendChild(toggles);
    box.appendChild(head(l.asks || ""));
    for (const a of f.asks || []) box.appendChild(el("div", "gk-players-row", `${a.user} (${a.character}): ${a.spec}`));
    const ask = el("div", "gk-players-row");
    const user = el("input"); user.placeholder = l.user || ""; user.setAttribute("aria-label", l.user || "");
    const spec = el("input"); spec.placeholder = l.spec || ""; spec.setAttribute("aria-label", l.spec || "");
    ask.append(user, spec, button(l.ask || "", () => ({ action: "ask", user: user.value, spec: spec.value })));
    box.appendChild(ask);
    box.appendChild(head(l.secrets || ""));
    for (const s of f.secrets || []) {
      const row = el("div", "gk-players-row", `${s.seq}: ${s.summary}`);
      row.append(button(l.reveal || "", { action: "reveal", seq: s.seq }));
      box.appendChild(row);
    }
    box.appendChild(head(l.recent || ""));
    for (const r of f.recent || []) box.appendChild(el("div", "gk-players-row", `${r.seq} · ${r.by}: ${r.summary}`));
    if (model.get("error")) box.appendChild(el("div", "gk-error", model.get("error")));
    root.appendChild(box);
  };
  model.on("change:facts", draw);
  model.on("change:error", draw);
  draw();
}
export default withPicture({ render });
