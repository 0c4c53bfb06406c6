// Hex picking on the campaign pages (issue 14): the mission wizard's deployment and the
// board editor. The page draws its board on the server (templates/campaigns/_hexboard.html,
// every hex `data-hex="q,r"`, focusable); a radio marked `data-pick` says which form fields
// a picked hex goes into (`data-pick-q`, `data-pick-r`: the ids of the q and r inputs).
// Picking the hex those fields already hold turns `data-pick-facing` (a select of
// directions 1-6, R-BRD-2) one step clockwise. Then the form is told: a `change` event
// (the wizard asks the server to check the deployment, htmx), or, with `data-pick-submit`,
// the form is submitted (the editor paints the hex, htmx). No rule is decided here: the
// server draws the board again and says what the engine makes of it.
// Without this module every field is an ordinary input and every form has its button.

let refocus = null;

function pick(hex) {
  const radio = document.querySelector("input[data-pick]:checked");
  if (!radio) return;
  const q = document.getElementById(radio.dataset.pickQ);
  const r = document.getElementById(radio.dataset.pickR);
  if (!q || !r) return;
  const [hq, hr] = hex.dataset.hex.split(",");
  const facing = radio.dataset.pickFacing && document.getElementById(radio.dataset.pickFacing);
  if (facing && q.value.trim() === hq && r.value.trim() === hr) {
    facing.value = String((Number(facing.value) % 6) + 1);
  } else {
    q.value = hq;
    r.value = hr;
  }
  refocus = hex.dataset.hex;
  if (radio.dataset.pickSubmit !== undefined) {
    q.form.requestSubmit();
  } else {
    q.dispatchEvent(new Event("change", { bubbles: true }));
  }
}

document.addEventListener("click", (event) => {
  const hex = event.target.closest("[data-hexpick] [data-hex]");
  if (hex) pick(hex);
  const face = event.target.closest("[data-face]");
  if (face) turn(face.dataset.face);
});

// Facing buttons (the wizard): set the chosen pilot's facing select to a direction 1-6.
// They need this module, so the page shows them only once it has run.
function turn(direction) {
  const radio = document.querySelector("input[data-pick]:checked");
  const facing = radio && radio.dataset.pickFacing && document.getElementById(radio.dataset.pickFacing);
  if (!facing) return;
  facing.value = direction;
  facing.dispatchEvent(new Event("change", { bubbles: true }));
}
for (const row of document.querySelectorAll("[data-facings]")) row.hidden = false;

document.addEventListener("keydown", (event) => {
  if (event.key !== "Enter" && event.key !== " ") return;
  const hex = event.target.closest && event.target.closest("[data-hexpick] [data-hex]");
  if (!hex) return;
  event.preventDefault();
  pick(hex);
});

// Remember the hex the keyboard is on, so that a swap does not lose it.
document.addEventListener("focusin", (event) => {
  const hex = event.target.closest && event.target.closest("[data-hexpick] [data-hex]");
  if (hex) refocus = hex.dataset.hex;
});

// The board is drawn again after each pick (perhaps more than once, when answers to
// earlier changes land after it): whenever a swap took the focus away, give it back to the
// hex picked or focused last. A focus the user moved elsewhere (a field) is left alone.
document.body.addEventListener("htmx:afterSettle", () => {
  if (refocus === null) return;
  const active = document.activeElement;
  if (active && active !== document.body && active.isConnected) return;
  const hex = document.querySelector(`[data-hexpick] [data-hex="${refocus}"]`);
  if (hex) hex.focus();
});
