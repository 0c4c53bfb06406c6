// The table: the battle page while it is played (docs/FRONTEND.md, "The table"). The server
// renders the board, the status bar, the hand strip and the prompt from the engine's legal
// actions; this module only shows and hides them: the panels beside or over the board, the
// choice to confirm when a hex, a turn, a target or a card is chosen (the bodies arrive in
// the HTML, in <template>s), and the "your turn" title and sound. It decides no rule.
// Sending stays with replay.js: every confirm button is a button[data-command].

const viewer = document.querySelector(".viewer");
const SOUND_KEY = "penance.sound";
const baseTitle = document.title;
let openDrawer = null; // the panel open beside or over the board, kept across frame swaps
let lastFocus = null;
let wasMine = false;

const frame = () => document.getElementById("frame");
const panel = () => document.querySelector("#frame [data-choice-panel]");

// --- panels (drawers): real buttons with aria-expanded; Esc closes ------------------------------
function setDrawer(name) {
  openDrawer = name;
  for (const p of document.querySelectorAll("[data-drawer-panel]")) {
    const open = p.dataset.drawerPanel === name;
    p.classList.toggle("open", open);
    if (p instanceof HTMLDetailsElement && open) p.open = true;
  }
  for (const b of document.querySelectorAll("[data-drawer]")) {
    b.setAttribute("aria-expanded", String(b.dataset.drawer === name));
  }
  const shown = name && document.querySelector(`[data-drawer-panel="${name}"]`);
  // The log opens at its latest lines, where the battle is.
  if (shown && name === "log") shown.scrollTop = shown.scrollHeight;
  if (shown) {
    const first = shown.querySelector("summary, [data-drawer-close], button, a, [tabindex]");
    first?.focus();
  }
}

// --- the choice to confirm ------------------------------------------------------------------
function showChoice(key, from) {
  const box = panel();
  const source = document.querySelector(`#frame template[data-choice-for="${CSS.escape(key)}"]`);
  if (!box || !source) return false;
  box.replaceChildren(source.content.cloneNode(true));
  box.hidden = false;
  lastFocus = from ?? document.activeElement;
  for (const h of document.querySelectorAll("#frame .chosen")) h.classList.remove("chosen");
  from?.classList?.add("chosen");
  // A move draws its path from the server's points (R-MOV-3).
  const line = document.querySelector("#frame .path-preview");
  if (line) {
    const points = from?.dataset?.points;
    if (points) {
      line.setAttribute("points", points);
      line.removeAttribute("hidden");
    } else line.setAttribute("hidden", "");
  }
  box.querySelector("button")?.focus({ preventScroll: true });
  return true;
}

function closeChoice() {
  const box = panel();
  if (box) {
    box.hidden = true;
    box.replaceChildren();
  }
  for (const h of document.querySelectorAll("#frame .chosen")) h.classList.remove("chosen");
  document.querySelector("#frame .path-preview")?.setAttribute("hidden", "");
  lastFocus?.focus?.({ preventScroll: true });
  lastFocus = null;
}

// A card chosen in the hand: its targets on the board (an attack) or its plays to confirm.
function selectCard(instance, button) {
  const pressed = button.getAttribute("aria-pressed") === "true";
  for (const b of document.querySelectorAll("#frame [data-card-select]")) b.setAttribute("aria-pressed", "false");
  for (const g of document.querySelectorAll("#frame [data-targets-for]")) g.setAttribute("hidden", "");
  if (pressed) {
    closeChoice();
    return;
  }
  button.setAttribute("aria-pressed", "true");
  document.querySelector(`#frame [data-targets-for="${CSS.escape(instance)}"]`)?.removeAttribute("hidden");
  showChoice(`card-${instance}`, button);
}

// Your casket selected (replay.js marks its token aria-pressed): its moves on the board,
// and a switch to the controls that turn it, drawn around the token.
function showTurns(seat, on) {
  for (const t of document.querySelectorAll("#frame [data-turn-for]")) {
    t.toggleAttribute("hidden", !(on && Number(t.dataset.turnFor) === seat));
  }
  const reach = document.querySelector(`#frame [data-reach-for="${seat}"]`);
  if (reach && on) reach.setAttribute("hidden", "");
}

function selectedSeat() {
  const t = document.querySelector('#frame svg .token[aria-pressed="true"]');
  return t ? Number(t.dataset.seat) : null;
}

function afterTokenToggle() {
  const seat = selectedSeat();
  const turns = seat !== null && document.querySelector(`#frame [data-turn-for="${seat}"]`);
  const mode = document.querySelector("#frame [data-turn-mode]");
  if (mode) mode.hidden = !turns;
  if (!turns) showTurns(-1, false);
}

// --- whose turn: the title, and a short sound if the player allowed it ----------------------
function soundOn() {
  try {
    return window.localStorage.getItem(SOUND_KEY) === "1";
  } catch {
    return false;
  }
}

function announce() {
  const f = frame();
  if (!f || !viewer) return;
  const mine = f.dataset.mine === "1";
  const headline = f.querySelector(".statusbar .headline")?.textContent.replace("▶", "").trim() ?? "";
  document.title = mine ? `▶ ${headline} · ${viewer.dataset.name}` : baseTitle.replace(/step \d+/, `step ${f.querySelector("[data-step]")?.dataset.step}`);
  if (mine && !wasMine && soundOn() && viewer.dataset.sound) {
    new Audio(viewer.dataset.sound).play().catch(() => {});
  }
  wasMine = mine;
  const status = document.querySelector("[data-battle-status]");
  const word = f.dataset.statusWord;
  if (status && word) status.textContent = word === "over" ? "Over" : word === "setting up" ? "Setting up" : "Running";
}

// After every frame swap (a step, a command of this page, a live update): the layout, the
// open panel, the sound switch and the title follow the new frame.
export function refresh() {
  const f = frame();
  if (!f || !viewer) return;
  // The table stays while the result of a battle this page played is shown.
  const table = f.dataset.mode === "table" || (viewer.classList.contains("table-mode") && f.querySelector("[data-result]"));
  viewer.classList.toggle("table-mode", Boolean(table));
  for (const b of document.querySelectorAll("[data-sound]")) {
    if (b instanceof HTMLButtonElement) b.setAttribute("aria-pressed", String(soundOn()));
  }
  setDrawerQuiet(openDrawer);
  afterTokenToggle();
  announce();
}

function setDrawerQuiet(name) {
  const focus = document.activeElement;
  setDrawer(name);
  if (focus instanceof HTMLElement && document.contains(focus)) focus.focus({ preventScroll: true });
}

if (viewer) {
  document.addEventListener("click", (event) => {
    const el = event.target instanceof Element ? event.target : null;
    if (!el) return;
    const drawer = el.closest("[data-drawer]");
    if (drawer) {
      setDrawer(openDrawer === drawer.dataset.drawer ? null : drawer.dataset.drawer);
      return;
    }
    if (el.closest("[data-drawer-close]")) {
      const name = openDrawer;
      setDrawer(null);
      document.querySelector(`[data-drawer="${name}"]`)?.focus();
      return;
    }
    const sound = el.closest("button[data-sound]");
    if (sound) {
      const on = !soundOn();
      try {
        window.localStorage.setItem(SOUND_KEY, on ? "1" : "0");
      } catch {
        /* private mode: the switch stays off */
      }
      sound.setAttribute("aria-pressed", String(on));
      return;
    }
    if (el.closest("[data-choice-cancel]")) {
      closeChoice();
      for (const b of document.querySelectorAll("#frame [data-card-select]")) b.setAttribute("aria-pressed", "false");
      for (const g of document.querySelectorAll("#frame [data-targets-for]")) g.setAttribute("hidden", "");
      return;
    }
    const open = el.closest("[data-choice-open]");
    if (open) {
      const target = document.querySelector(`#frame [data-choice="${CSS.escape(open.dataset.choiceOpen)}"]`);
      showChoice(open.dataset.choiceOpen, target ?? open);
      return;
    }
    const card = el.closest("[data-card-select]");
    if (card) {
      selectCard(card.dataset.cardSelect, card);
      return;
    }
    const mode = el.closest("[data-turn-mode]");
    if (mode) {
      const seat = selectedSeat();
      const on = mode.getAttribute("aria-pressed") !== "true";
      mode.setAttribute("aria-pressed", String(on));
      if (seat !== null) {
        showTurns(seat, on);
        if (!on) document.querySelector(`#frame [data-reach-for="${seat}"]`)?.removeAttribute("hidden");
      }
      return;
    }
    const choice = el.closest("svg [data-choice]");
    if (choice) {
      showChoice(choice.dataset.choice, choice);
      return;
    }
    if (el.closest("svg .token")) afterTokenToggle();
  });

  document.addEventListener("keydown", (event) => {
    const t = event.target instanceof Element ? event.target : null;
    if (event.key === "Escape") {
      if (openDrawer) {
        const name = openDrawer;
        setDrawer(null);
        document.querySelector(`[data-drawer="${name}"]`)?.focus();
      } else if (panel() && !panel().hidden) closeChoice();
      return;
    }
    if ((event.key === "Enter" || event.key === " ") && t?.closest("svg [data-choice]")) {
      event.preventDefault();
      event.stopImmediatePropagation();
      const choice = t.closest("svg [data-choice]");
      showChoice(choice.dataset.choice, choice);
      return;
    }
    if ((event.key === "Enter" || event.key === " ") && t?.closest("svg .token")) {
      window.setTimeout(afterTokenToggle, 0);
    }
  }, true);

  document.body.addEventListener("htmx:afterSwap", () => {
    lastFocus = null;
    refresh();
  });
  refresh();
}
