// The battle viewer's one module (docs/FRONTEND.md). The server renders every step from the
// engine's state; this module only moves between steps without reloading the page: it asks
// for the step's frame with htmx, swaps it in, keeps `?at=N` in the URL (replaceState) and
// the scrub bar, log and charts in step. It computes no rule: arcs, lines of sight, odds and
// to-hit lines all arrive in the HTML.

import { refresh } from "./table.js";

const viewer = document.querySelector(".viewer");
const SEAT_STYLES = [
  { color: "#d9603b", dash: [], point: "circle" },
  { color: "#5b8fd9", dash: [6, 4], point: "triangle" },
  { color: "#7fbf5a", dash: [2, 3], point: "rect" },
  { color: "#c9a0dc", dash: [10, 3, 2, 3], point: "star" },
];

// Scroll the log pane (only it, never the page) so that `line` is in view.
function scrollLog(line) {
  const log = line.closest(".log");
  if (!log) return;
  const top = line.offsetTop; // .log is positioned: offsets are from its top
  if (top < log.scrollTop + 40 || top > log.scrollTop + log.clientHeight - 40) {
    log.scrollTop = top - log.clientHeight / 2;
  }
}

function frameStep() {
  const el = document.querySelector("#frame [data-step]");
  return { at: Number(el.dataset.step), last: Number(el.dataset.last) };
}

if (viewer) {
  const turns = (viewer.dataset.turns || "").split(",").filter(Boolean).map(Number);
  const scrub = document.getElementById("scrub");
  const stepTimes = (window.penanceStepTimes = []);
  let selectedSeat = null;
  let inFlight = false;
  let pending = null;
  let oddsChart = null;
  // The step asked for last: keys pressed while a frame is on its way count from here, so
  // three quick presses move three steps.
  let wanted = frameStep().at;

  // The latest version this page knows of; live polling raises it (see `poll`).
  let knownHead = frameStep().last;
  const clamp = (n) => Math.min(Math.max(n, 1), Math.max(frameStep().last, knownHead));

  // Panels the user opened or closed (GM controls, moves) stay so across frame swaps.
  const kept = {};
  document.addEventListener(
    "toggle",
    (event) => {
      const d = event.target;
      if (d instanceof HTMLDetailsElement && d.dataset.keep) kept[d.dataset.keep] = d.open;
    },
    true,
  );
  const restoreKept = () => {
    for (const d of document.querySelectorAll("#frame details[data-keep]")) {
      if (d.dataset.keep in kept) d.open = kept[d.dataset.keep];
    }
  };

  const syncPage = () => {
    restoreKept();
    // A prompt for this viewer takes the focus, so a keyboard or screen reader user is there.
    document.querySelector("#frame [data-prompt]")?.focus();
    const { at, last } = frameStep();
    const url = new URL(window.location.href);
    url.searchParams.set("at", String(at));
    window.history.replaceState(null, "", url.toString());
    document.title = document.title.replace(/step \d+/, `step ${at}`);
    if (scrub) {
      scrub.value = String(at);
      scrub.setAttribute("aria-valuetext", `step ${at} of ${last}`);
    }
    for (const li of document.querySelectorAll(".log [aria-current]")) li.removeAttribute("aria-current");
    const line = document.querySelector(`.log [data-line="${at}"]`);
    if (line) {
      line.setAttribute("aria-current", "step");
      scrollLog(line);
    }
    applySelection();
    drawOdds();
    refresh();
  };

  const go = (n) => {
    const target = clamp(n);
    wanted = target;
    if (inFlight) {
      pending = target;
      return;
    }
    if (target === frameStep().at) return;
    const url = new URL(window.location.href);
    url.searchParams.set("at", String(target));
    if (!window.htmx) {
      window.location.assign(url.toString()); // htmx did not load: a plain page load still works
      return;
    }
    inFlight = true;
    const started = performance.now();
    window.htmx
      .ajax("GET", url.pathname + url.search, { target: "#frame", swap: "outerHTML" })
      .then(() => {
        syncPage();
        stepTimes.push(performance.now() - started);
      })
      .finally(() => {
        inFlight = false;
        if (pending !== null) {
          const next = pending;
          pending = null;
          go(next);
        }
      });
  };

  const turnFrom = (at, direction) => {
    if (direction < 0) {
      const earlier = turns.filter((v) => v < at);
      return earlier.length ? earlier[earlier.length - 1] : 1;
    }
    const later = turns.find((v) => v > at);
    return later ?? frameStep().last;
  };

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const t = event.target;
    if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement) return;
    const { last } = frameStep();
    const at = wanted;
    let target = null;
    if (event.key === "ArrowLeft") target = event.shiftKey ? turnFrom(at, -1) : at - 1;
    else if (event.key === "ArrowRight") target = event.shiftKey ? turnFrom(at, 1) : at + 1;
    else if (event.key === "j") target = at + 1;
    else if (event.key === "k") target = at - 1;
    else if (event.key === "Home") target = 1;
    else if (event.key === "End") target = Math.max(last, knownHead);
    else if ((event.key === "Enter" || event.key === " ") && t instanceof Element && t.closest("[data-seat]")) {
      event.preventDefault();
      toggleSeat(Number(t.closest("[data-seat]").dataset.seat));
      return;
    }
    if (target !== null) {
      event.preventDefault();
      go(target);
    }
  });

  document.addEventListener("click", (event) => {
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const el = event.target instanceof Element ? event.target : null;
    if (!el) return;
    const token = el.closest("[data-seat]");
    if (token && token.closest("svg")) {
      toggleSeat(Number(token.dataset.seat));
      return;
    }
    const nav = el.closest("#frame [data-nav]");
    if (nav) {
      event.preventDefault();
      go(Number(new URL(nav.href).searchParams.get("at")));
      return;
    }
    // A hex, a turn or a target on the board opens its choice to confirm (table.js).
    if (el.closest("svg [data-choice]")) return;
    const action = el.closest("button[data-command]");
    if (action) {
      event.preventDefault();
      if (action.dataset.askConfirm && !window.confirm(action.dataset.askConfirm)) return;
      const body = JSON.parse(action.dataset.command);
      if (action.dataset.askReason) {
        // The GM accepting a player's withdrawal gives a reason (R-TRN-9).
        const reason = window.prompt(action.dataset.askReason);
        if (!reason) return;
        body.reason = reason;
      }
      send(body, action);
      return;
    }
    const jump = el.closest("[data-at]");
    if (jump) {
      event.preventDefault();
      go(Number(jump.dataset.at));
      return;
    }
    // A click anywhere on a log line (but on its ruling links) jumps to that step.
    const line = el.closest(".log [data-line]");
    if (line && !el.closest("a")) go(Number(line.dataset.line));
  });

  if (scrub) {
    scrub.addEventListener("input", () => go(Number(scrub.value)));
  }

  // --- playing: the buttons carry the engine's command bodies; the page adds the envelope --
  const battleId = viewer.dataset.battle;
  const csrf = document.querySelector('meta[name="csrf-token"]')?.content ?? "";
  let sending = false;

  // crypto.randomUUID exists only on HTTPS or localhost; tables often play over a LAN.
  const commandId = () => {
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  };

  const say = (text, ok = false) => {
    const box = document.querySelector("#frame .play-message");
    if (box) {
      box.textContent = text;
      box.classList.toggle("ok", ok);
    }
  };

  // Table dice: ask for the faces rolled and the cards drawn, then send them with the body;
  // the engine says what is missing or wrong ("attack roll needs 2 more die face(s)").
  function askTable(body, button, message = "", previous = { faces: [], drawn: [] }) {
    const dialog = document.querySelector("#frame dialog.table-dice");
    if (!dialog) return false;
    // After a refusal the table's answers so far stay, so it adds only what was missing.
    const faces = [...previous.faces];
    const shown = dialog.querySelector(".faces");
    const draw = () => {
      shown.textContent = faces.length ? faces.join(", ") : "none";
    };
    draw();
    dialog.querySelector(".table-for").textContent = button?.textContent?.trim() || body.type;
    dialog.querySelector(".table-message").textContent = message;
    dialog.querySelector("input[name=drawn]").value = previous.drawn.join(", ");
    dialog.onclick = (event) => {
      const face = event.target.closest?.("[data-face]");
      if (face) faces.push(Number(face.dataset.face));
      if (event.target.closest?.(".die-undo")) faces.pop();
      draw();
    };
    dialog.onclose = () => {
      if (dialog.returnValue !== "send") return;
      const drawn = dialog.querySelector("input[name=drawn]").value.split(",").map((x) => x.trim()).filter(Boolean);
      send({ ...body, faces, drawn }, button, true);
    };
    dialog.showModal();
    return true;
  }

  // An overspend is paid from the deck's top as offered, or with the hand cards the player
  // ticked (R-TRN-3); the engine checks the payment like any other.
  function withTickedPayment(body, button) {
    // The cards owed are the engine's count (LegalAction.overspend), sent in the HTML.
    const owed = Number(button?.dataset.overspend ?? 0);
    if (!body.pay || !owed) return body;
    const ticked = [...document.querySelectorAll(`#frame input[data-overspend-card="${body.seat}"]:checked`)]
      .map((input) => input.value)
      .filter((card) => card !== body.card);
    if (!ticked.length) return body;
    const hand = ticked.slice(0, owed);
    return { ...body, pay: { hand, deck: owed - hand.length } };
  }

  async function send(body, button, fromTable = false) {
    if (sending) return; // a double click sends once
    const play = document.querySelector("#frame [data-play]");
    if (!play) return;
    if (!fromTable) body = withTickedPayment(body, button);
    if (play.dataset.table === "1" && !fromTable && askTable(body, button)) return;
    sending = true;
    for (const b of document.querySelectorAll("#frame [data-command]")) b.disabled = true;
    // One id per click: a retry of the same click would be answered with the original.
    const id = button?.dataset.commandId || commandId();
    if (button) button.dataset.commandId = id;
    let answer;
    try {
      const response = await fetch(`/api/battles/${battleId}/commands`, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf, Accept: "application/json" },
        body: JSON.stringify({ command_id: id, expected_version: Number(play.dataset.version), ...body }),
      });
      answer = { status: response.status, json: await response.json().catch(() => ({})) };
    } catch (error) {
      answer = { status: 0, json: { message: "the site could not be reached; nothing was sent" } };
    }
    sending = false;
    if (answer.status === 201) {
      await follow(answer.json.version);
      say(`Done: step ${answer.json.version}.`, true);
    } else if (answer.status === 409 && answer.json.code === "stale_version") {
      await follow(answer.json.current_version ?? null);
      say("The battle moved on before your command arrived: the page now shows the latest state. Choose again.");
    } else {
      const e = (answer.json.errors && answer.json.errors[0]) || answer.json;
      const rule = e.rule ? ` (${e.rule})` : "";
      const text = `Refused: ${e.field ? e.field + ": " : ""}${e.message || "status " + answer.status}${rule}`;
      say(text);
      for (const b of document.querySelectorAll("#frame [data-command]")) b.disabled = false;
      if (fromTable) {
        // Ask again with the engine's words; a new id, since the refused one was not applied.
        if (button) delete button.dataset.commandId;
        const { faces, drawn, ...plain } = body;
        askTable(plain, button, text, { faces, drawn });
      }
    }
  }

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.dataset.command) return;
    event.preventDefault();
    if (form.dataset.askConfirm && !window.confirm(form.dataset.askConfirm)) return;
    const body = JSON.parse(form.dataset.command);
    const hex = [];
    for (const input of form.querySelectorAll("input[name], select[name]")) {
      if (input.hasAttribute("data-list")) {
        // Ticked cards make a list; unticked ones add nothing.
        body[input.name] = body[input.name] ?? [];
        if (input.checked) body[input.name].push(input.value);
        continue;
      }
      let value = input.value;
      if (input.hasAttribute("data-int")) value = Number(value);
      if (input.hasAttribute("data-null-empty") && value === "") value = null;
      if (input.dataset.hexPart !== undefined) {
        hex[Number(input.dataset.hexPart)] = value;
        continue;
      }
      if (input.hasAttribute("data-seat-from-option")) body.seat = Number(input.selectedOptions[0]?.dataset.seat);
      body[input.name] = value;
    }
    if (hex.length) body.at = hex;
    // Damage taken: what the hand does not give comes from the deck's top (R-DMG-6).
    if (form.dataset.deckTotal) body.deck = Math.max(0, Number(form.dataset.deckTotal) - (body.hand ?? []).length);
    send(body, form.querySelector("button[type=submit]"));
  });

  // --- live: notice new events from anyone (docs/FRONTEND.md, "Live updates") ------------------
  async function appendLog(after) {
    const response = await fetch(`/battles/${battleId}/replay/log?after=${after}`, { credentials: "same-origin" });
    if (!response.ok) return;
    addLogLines(await response.text());
  }

  function addLogLines(html) {
    const log = document.querySelector(".log");
    if (!log) return;
    const holder = document.createElement("section");
    holder.className = "round live";
    holder.innerHTML = html;
    log.appendChild(holder);
  }

  // A newer head: extend the scrub bar, append its log lines, and let stepping reach it.
  async function learnHead(version) {
    if (version <= knownHead) return;
    const previous = knownHead;
    knownHead = version;
    if (scrub) scrub.max = String(version);
    document.querySelector("#frame [data-step]")?.setAttribute("data-last", String(version));
    await appendLog(previous);
  }

  // Show the latest step (after this page's own command, or while following the battle).
  async function follow(version) {
    // learnHead sets knownHead before it waits for the log lines; the frame does not need
    // them, so both are fetched side by side (one round trip after a command, not two).
    const logged = learnHead(version ?? knownHead);
    const head = knownHead;
    wanted = head;
    if (!window.htmx) {
      window.location.assign(`?at=${head}`);
      return;
    }
    inFlight = true;
    await Promise.all([
      logged,
      window.htmx.ajax("GET", `${window.location.pathname}?at=${head}`, { target: "#frame", swap: "outerHTML" }),
    ]);
    inFlight = false;
    syncPage();
  }

  // The store's updates endpoint (docs/FRONTEND.md, "Live updates"): it answers at once
  // when the stream is past `after`, or holds the request where the server can afford it,
  // and says how long to wait before asking again (`poll_after_ms`).
  async function poll(once = false) {
    let delay = 1000;
    try {
      const response = await fetch(`/api/battles/${battleId}/updates?after=${knownHead}&wait=20`, {
        credentials: "same-origin",
        headers: { Accept: "application/json" },
      });
      if (response.ok) {
        const update = await response.json();
        delay = update.more ? 0 : update.poll_after_ms ?? 1000;
        if (update.version > knownHead) {
          const following = frameStep().at === knownHead && !sending && !inFlight;
          if (following) await follow(update.version);
          else await learnHead(update.version);
        }
      } else if (response.status === 400) {
        window.location.reload(); // the page holds a version the stream never had
        return;
      }
    } catch (error) {
      // Offline: the next poll catches up from knownHead.
    }
    if (once) return delay === 0; // more events wait: ask again
    window.setTimeout(poll, document.hidden ? Math.max(delay, 5000) : delay);
  }

  // A watcher's stream brings the new version's frame and log lines with it (the bytes a
  // fetch would get: every watcher sees the same, R-ADD-28), so the page asks nothing. They
  // are swapped in as after a fetch: the log lines appended, and the frame put in by htmx
  // (its afterSwap event included) when the page follows the battle. Only when they start
  // where this page is: a page behind, busy or stepping fetches as before. True if taken.
  function takePushed(data) {
    if (data.after !== knownHead || data.version <= knownHead || sending || inFlight) return false;
    const following = frameStep().at === knownHead;
    if (following && !window.htmx) return false; // htmx did not load: follow() reloads
    knownHead = data.version;
    if (scrub) scrub.max = String(data.version);
    addLogLines(data.log);
    if (following) {
      wanted = knownHead;
      const settleDelay = window.htmx.config.defaultSettleDelay;
      window.htmx.swap("#frame", data.frame, { swapStyle: "outerHTML", settleDelay });
      syncPage();
    } else {
      document.querySelector("#frame [data-step]")?.setAttribute("data-last", String(data.version));
    }
    return true;
  }

  // Pushed updates (docs/FRONTEND.md, "Live updates"): one EventSource per page hears each
  // new version of the battle. To a player or the GM it brings the version alone: the page
  // fetches the log lines after the version it knew and, when it follows the battle, the
  // frame at the new one, both rendered for what this viewer may see (R-ADD-28), so no
  // hidden information crosses the stream and no `…/updates` request comes between (that
  // endpoint stays for API clients and the polling fallback). To a watcher it brings the
  // watchers' frame and log lines too (`fragments`, takePushed). A dropped stream
  // reconnects by itself (Last-Event-ID) and catches up by fetching; one the server
  // refuses (too many open, signed out) falls back to polling.
  function listen() {
    if (!window.EventSource) return false;
    const source = new EventSource(`/api/battles/${battleId}/stream?after=${knownHead}`);
    let heard = 0;
    let busy = false;
    const catchUp = async () => {
      if (heard <= knownHead || busy) return; // the running loop below reaches `heard`
      busy = true;
      try {
        while (heard > knownHead) {
          const following = frameStep().at === knownHead && !sending && !inFlight;
          if (following) await follow(heard);
          else await learnHead(heard);
        }
      } catch (error) {
        // A fetch failed (offline): the next version heard carries on from knownHead.
      } finally {
        busy = false;
      }
    };
    source.addEventListener("version", (event) => {
      heard = Math.max(heard, Number(event.data));
      catchUp();
    });
    source.addEventListener("fragments", (event) => {
      const data = JSON.parse(event.data);
      heard = Math.max(heard, data.version);
      if (busy || !takePushed(data)) catchUp();
    });
    source.addEventListener("error", () => {
      if (source.readyState === EventSource.CLOSED) window.setTimeout(poll, 1000);
    });
    return true;
  }
  if (viewer.dataset.live === "1" && !listen()) window.setTimeout(poll, 1000);

  // --- selecting a casket: its firing arc and lines of sight, drawn by the server -------------
  function toggleSeat(seat) {
    selectedSeat = selectedSeat === seat ? null : seat;
    const reachable = applySelection();
    if (reachable) say(`${reachable} hexes reachable, each marked with its SP cost: select one to see the path.`, true);
  }

  function applySelection() {
    for (const g of document.querySelectorAll("#frame [data-overlay-for]")) {
      // SVG elements have no `hidden` property: set the attribute (site.css hides it).
      g.toggleAttribute("hidden", Number(g.dataset.overlayFor) !== selectedSeat);
    }
    for (const token of document.querySelectorAll("#frame svg [data-seat]")) {
      token.setAttribute("aria-pressed", String(Number(token.dataset.seat) === selectedSeat));
    }
    // Your own casket selected: every hex it can reach, each with its SP cost (issue 13).
    let reachable = 0;
    for (const g of document.querySelectorAll("#frame [data-reach-for]")) {
      const shown = Number(g.dataset.reachFor) === selectedSeat;
      g.toggleAttribute("hidden", !shown);
      if (shown) reachable = g.querySelectorAll("[data-move-dest]").length;
    }
    if (!reachable) document.querySelector("#frame .path-preview")?.setAttribute("hidden", "");
    return reachable;
  }

  // --- charts ---------------------------------------------------------------------------------
  function drawOdds() {
    if (!window.Chart) return;
    if (oddsChart) {
      oddsChart.destroy();
      oddsChart = null;
    }
    const canvas = document.querySelector('#frame canvas[data-chart="odds"]');
    const data = document.getElementById("odds-data");
    if (!canvas || !data) return;
    const rows = JSON.parse(data.textContent);
    oddsChart = new window.Chart(canvas, {
      type: "bar",
      data: {
        labels: rows.map((r) => r.grade),
        datasets: [{ label: "chance, %", data: rows.map((r) => r.percent), backgroundColor: "#e0a458" }],
      },
      options: {
        animation: false,
        plugins: { legend: { display: false }, tooltip: { callbacks: { label: (c) => rows[c.dataIndex].chance } } },
        scales: { y: { beginAtZero: true, title: { display: true, text: "%" } } },
      },
    });
  }

  function drawSeries() {
    if (!window.Chart) return;
    const source = document.getElementById("chart-data");
    if (!source) return;
    for (const chart of JSON.parse(source.textContent)) {
      const canvas = document.querySelector(`.charts canvas[data-chart="${chart.key}"]`);
      if (!canvas) continue;
      new window.Chart(canvas, {
        type: "line",
        data: {
          labels: chart.labels,
          datasets: chart.series.map((s, i) => {
            const style = SEAT_STYLES[i % SEAT_STYLES.length];
            return {
              label: `${s.name} (seat ${s.seat})`,
              data: s.points.map((p) => p.value),
              versions: s.points.map((p) => p.version),
              borderColor: style.color,
              backgroundColor: style.color,
              borderDash: style.dash,
              pointStyle: style.point,
              pointRadius: 5,
              pointHoverRadius: 8,
              // A tap or click within 16 px of a point picks it: the dots are small targets.
              pointHitRadius: 16,
            };
          }),
        },
        options: {
          animation: false,
          interaction: { mode: "nearest", intersect: true },
          onClick: (event, elements, c) => {
            if (!elements.length) return;
            const { datasetIndex, index } = elements[0];
            go(c.data.datasets[datasetIndex].versions[index]);
          },
          scales: { y: { beginAtZero: true } },
        },
      });
    }
  }

  const start = () => {
    document.querySelector("#frame [data-prompt]")?.focus();
    drawSeries();
    drawOdds();
    applySelection();
    const current = document.querySelector(".log [aria-current]");
    if (current) scrollLog(current);
  };
  // Classic deferred scripts (htmx, Chart.js) run before this module; the check is for a
  // page whose vendor files are missing, which must still step by plain links.
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
}
