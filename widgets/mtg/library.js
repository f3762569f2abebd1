// MtG library widget: shows what the session says, with labelled figures; the buttons send intents
// back (check, boost, scene). The chosen colour and difficulty stay between clicks and redraws (the
// widget's memory, common.js); Boost is disabled with the rules' reason. No rules here.
// el, button, memoryOf and keepFocus come from common.js.
function chips(names, none) {
  const box = el("span", "gk-lib-chips");
  if (!names.length) box.append(el("span", "gk-muted", none));
  for (const name of names) box.append(el("span", "gk-chip", name));
  return box;
}

function figure(cls, label, value, note) {
  const box = el("div", "gk-lib-figure " + cls);
  box.append(el("div", "gk-lib-figure-label", label));
  box.append(el("div", "gk-lib-figure-value", value));
  if (note) box.append(el("div", "gk-lib-figure-note gk-muted", note));
  return box;
}

function draw(model, root, memory) {
  const L = model.get("labels") || {};
  const box = el("div", "gk-library gk-widget");
  const head = el("div", "gk-lib-head");
  head.append(el("span", "gk-lib-title", L.title || model.get("actor")));
  head.append(el("span", "gk-chip gk-lib-scene", L.scene || ""));
  head.append(el("span", "gk-chip gk-lib-boost " + (model.get("boost_used") ? "gk-bad" : "gk-ok"),
    model.get("boost_used") ? L.boost_used : L.boost_free));
  box.append(head);
  if (L.options) box.append(houseRules("gk-lib-options", L.options, L.options_detail));

  const figures = el("div", "gk-lib-figures");
  figures.append(figure("gk-lib-left", L.cards_left, model.get("count")));
  const known = figure("gk-lib-known", L.known_top, "");
  known.querySelector(".gk-lib-figure-value").replaceChildren(chips(model.get("known_top") || [], L.none));
  figures.append(known);
  const bottom = model.get("known_bottom") || 0; // a count: which card is where stays unknown (MTG-CHK-12)
  if (bottom) figures.append(figure("gk-lib-known-bottom", L.known_bottom_label, bottom, L.known_bottom_note));
  box.append(figures);

  const exiled = model.get("exile") || [];
  const exile = el("div", "gk-lib-exile");
  exile.append(el("span", "gk-lib-figure-label", `${L.exile} (${exiled.length})`));
  exile.append(chips(exiled, L.none)); // wraps, and scrolls inside past a few rows
  box.append(exile);

  const last = model.get("last_check");
  if (last) {
    const boost = model.get("last_boost");
    const pair = el("div", "gk-lib-pair");
    const target = figure("gk-lib-card gk-lib-first", L.target, last.target, last.target_formula);
    target.querySelector(".gk-lib-figure-value").classList.add("gk-lib-target");
    const achievement = figure("gk-lib-card gk-lib-second gk-mtg-" + (last.chosen_colour || "colourless"),
      L.achievement, boost ? boost.achievement : last.achievement, last.achievement_formula);
    achievement.querySelector(".gk-lib-figure-value").classList.add("gk-lib-achievement");
    if (boost && L.boosted) achievement.append(el("div", "gk-lib-boosted", L.boosted));
    const success = boost ? boost.success : last.success;
    const verdict = el("div", "gk-chip gk-lib-verdict " + (success ? "gk-ok" : "gk-bad"),
      `${last.kind_label} [${last.difficulty}] ${success ? L.success : L.failure}`);
    pair.append(target, achievement, verdict);
    box.append(pair);
  }

  const dist = model.get("distribution") || {};
  const kinds = L.kinds || []; // the check kinds in pentagon order, from the session's colour data
  const peak = Math.max(1, ...kinds.map((c) => dist[c] || 0));
  const bars = el("div", "gk-lib-bars");
  bars.setAttribute("aria-label", L.colours || "");
  for (const colour of kinds) {
    const bar = el("div", "gk-lib-bar gk-lib-" + colour);
    const fill = el("div", "gk-lib-fill gk-mtg-" + colour);
    fill.style.height = `${Math.round(30 * (dist[colour] || 0) / peak)}px`;
    bar.append(fill, el("div", "", `${L["colour_" + colour]} ${dist[colour] || 0}`));
    bars.append(bar);
  }
  box.append(bars);

  const controls = el("div", "gk-lib-controls");
  const kindLabel = el("label", "gk-lib-label", `${L.kind} `);
  const kind = el("select", "gk-lib-kind");
  kind.dataset.focusId = "kind";
  for (const colour of kinds) {
    const option = el("option", "", L["colour_" + colour]);
    option.value = colour;
    kind.append(option);
  }
  kind.value = memory.kind || "green"; // the GM's last choice, not a reset to green
  kind.addEventListener("change", () => { memory.kind = kind.value; });
  kindLabel.append(kind);
  const difficultyLabel = el("label", "gk-lib-label", `${L.difficulty} `);
  const difficulty = el("input", "gk-lib-difficulty");
  difficulty.type = "number";
  difficulty.min = "0";
  difficulty.dataset.focusId = "difficulty";
  difficulty.title = L.difficulty_hint || "";
  difficulty.value = memory.difficulty ?? "2";
  difficulty.addEventListener("input", () => { memory.difficulty = difficulty.value; });
  const sendCheck = () => ({ action: "check", kind: kind.value, difficulty: difficulty.value });
  difficulty.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      model.send(sendCheck());
    }
  });
  difficultyLabel.append(difficulty);
  const check = button(L.button_check, "gk-lib-check gk-button-primary", sendCheck, model);
  check.dataset.focusId = "check";
  const refused = model.get("boost_refused") || "";
  const boostButton = button(L.button_boost, "gk-lib-boost-button", () => ({ action: "boost" }), model);
  boostButton.dataset.focusId = "boost";
  boostButton.disabled = Boolean(refused);
  boostButton.title = refused;
  const scene = button(L.button_scene, "gk-lib-new-scene", () => ({ action: "scene" }), model);
  scene.dataset.focusId = "scene";
  controls.append(kindLabel, difficultyLabel, check, boostButton, scene);
  box.append(controls);
  if (refused) box.append(el("div", "gk-lib-boost-reason gk-muted", refused));
  const error = model.get("error");
  if (error) {
    const line = el("div", "gk-lib-error gk-error", error);
    line.setAttribute("role", "alert");
    box.append(line);
  }
  root.replaceChildren(box);
  keepFocus(box, memory);
}

export default withPicture({
  render({ model, el: root }) {
    const memory = memoryOf(model);
    const redraw = () => draw(model, root, memory);
    for (const name of ["count", "known_top", "known_bottom", "exile", "last_check", "last_boost", "distribution", "labels",
      "boost_used", "boost_refused", "scene", "error", "actor"]) {
      model.on(`change:${name}`, redraw);
    }
    redraw();
  },
});
