// MtG library widget: shows what the session says; buttons send intents back (check, boost, scene).
const COLOURS = {
  white: "#f8f3dc", blue: "#d6e9f8", black: "#d9d4d9", red: "#f9d9d2", green: "#d6efd9", colourless: "#e6e6ea",
};

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = String(text);
  return node;
}

function chips(names, none) {
  const box = el("span");
  if (!names.length) box.append(el("span", "gk-muted", none));
  for (const name of names) box.append(el("span", "gk-chip", name));
  return box;
}

function draw(model, root) {
  const L = model.get("labels") || {};
  root.replaceChildren();
  const head = el("div", "gk-lib-head");
  head.append(el("span", "gk-lib-title", L.title || model.get("actor")));
  head.append(el("span", "gk-lib-count", model.get("count")));
  head.append(el("span", "gk-lib-scene", L.scene || ""));
  head.append(el("span", "gk-chip gk-lib-boost " + (model.get("boost_used") ? "gk-bad" : "gk-ok"),
    model.get("boost_used") ? L.boost_used : L.boost_free));
  root.append(head);
  if (L.options) root.append(el("div", "gk-lib-options gk-muted", L.options));

  const known = el("div", "gk-lib-known", L.known || "");
  known.append(chips(model.get("known_top") || [], L.none));
  root.append(known);
  const exile = el("div", "gk-lib-exile", L.exile || "");
  exile.append(chips(model.get("exile") || [], L.none));
  root.append(exile);

  const last = model.get("last_check");
  if (last) {
    const pair = el("div", "gk-lib-pair");
    const first = el("div", "gk-lib-card gk-lib-first");
    first.append(el("div", "", last.first));
    first.append(el("b", "gk-lib-target", last.target));
    const second = el("div", "gk-lib-card gk-lib-second");
    second.style.background = COLOURS[last.chosen_colour || "colourless"];
    second.style.color = "#1f1f1f";  // a pair: the swatch is light in every theme
    second.append(el("div", "", last.second));
    const boost = model.get("last_boost");
    const achievement = boost ? boost.achievement : last.achievement;
    second.append(el("b", "gk-lib-achievement", achievement));
    const success = boost ? boost.success : last.success;
    const verdict = el("div", "gk-chip gk-lib-verdict " + (success ? "gk-ok" : "gk-bad"),
      `${last.kind_label} [${last.difficulty}] ${success ? L.success : L.failure}`);
    pair.append(first, second, verdict);
    root.append(pair);
  }

  const dist = model.get("distribution") || {};
  const kinds = L.kinds || [];  // the check kinds in pentagon order, from the session's colour data
  const peak = Math.max(1, ...kinds.map((c) => dist[c] || 0));
  const bars = el("div", "gk-lib-bars");
  for (const colour of kinds) {
    const bar = el("div", "gk-lib-bar gk-lib-" + colour);
    const fill = el("div");
    fill.style.height = `${Math.round(30 * (dist[colour] || 0) / peak)}px`;
    fill.style.background = COLOURS[colour];
    fill.style.border = "1px solid #bbb";
    bar.append(fill, el("div", "", `${L["colour_" + colour] || colour} ${dist[colour] || 0}`));
    bars.append(bar);
  }
  root.append(bars);

  const controls = el("div", "gk-lib-controls");
  const kind = el("select", "gk-lib-kind");
  for (const colour of kinds) {
    const option = el("option", "", L["colour_" + colour] || colour);
    option.value = colour;
    kind.append(option);
  }
  kind.value = "green";
  const difficulty = el("input", "gk-lib-difficulty");
  difficulty.type = "number";
  difficulty.value = "2";
  difficulty.style.width = "3em";
  const check = el("button", "gk-lib-check", L.button_check || "check");
  check.onclick = () => model.send({ action: "check", kind: kind.value, difficulty: difficulty.value });
  const boostButton = el("button", "gk-lib-boost-button", L.button_boost || "boost");
  boostButton.onclick = () => model.send({ action: "boost" });
  const scene = el("button", "gk-lib-new-scene", L.button_scene || "scene");
  scene.onclick = () => model.send({ action: "scene" });
  controls.append(kind, difficulty, check, boostButton, scene);
  root.append(controls);
  if (model.get("error")) root.append(el("div", "gk-lib-error", model.get("error")));
}

export default {
  render({ model, el: host }) {
    const root = el("div", "gk-library");
    host.append(root);
    const redraw = () => draw(model, root);
    for (const name of ["count", "known_top", "exile", "last_check", "last_boost", "distribution", "labels",
      "boost_used", "scene", "error", "actor"]) {
      model.on(`change:${name}`, redraw);
    }
    redraw();
  },
};
