// The battle viewer's one module (docs/FRONTEND.md). The server renders every step from the
// engine's state; this module only moves between steps without reloading the page: it asks
// for the step's frame with htmx, swaps it in, keeps `?at=N` in the URL (replaceState) and
// the scrub bar, log and charts in step. It computes no rule: arcs, lines of sight, odds and
// to-hit lines all arrive in the HTML.

const viewer = document.querySelector(".viewer");
const SEAT_STYLES = [
  { color: "#d9603b", dash: [], point: "circle" },
  { color: "#5b8fd9", dash: [6, 4], point: "triangle" },
  { color: "#7fbf5a", dash: [2, 3], point: "rect" },
  { color: "#c9a0dc", dash: [10, 3, 2, 3], point: "star" },
];

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

  const clamp = (n) => Math.min(Math.max(n, 1), frameStep().last);

  const syncPage = () => {
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
      line.scrollIntoView({ block: "nearest" });
    }
    applySelection();
    drawOdds();
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
    else if (event.key === "End") target = last;
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
    const command = el.closest("#frame [data-command]");
    if (command) {
      event.preventDefault();
      go(Number(new URL(command.href).searchParams.get("at")));
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

  // --- selecting a casket: its firing arc and lines of sight, drawn by the server -------------
  function toggleSeat(seat) {
    selectedSeat = selectedSeat === seat ? null : seat;
    applySelection();
  }

  function applySelection() {
    for (const g of document.querySelectorAll("#frame [data-overlay-for]")) {
      // SVG elements have no `hidden` property: set the attribute (site.css hides it).
      g.toggleAttribute("hidden", Number(g.dataset.overlayFor) !== selectedSeat);
    }
    for (const token of document.querySelectorAll("#frame svg [data-seat]")) {
      token.setAttribute("aria-pressed", String(Number(token.dataset.seat) === selectedSeat));
    }
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
    drawSeries();
    drawOdds();
    applySelection();
    const current = document.querySelector(".log [aria-current]");
    if (current) current.scrollIntoView({ block: "nearest" });
  };
  // Classic deferred scripts (htmx, Chart.js) run before this module; the check is for a
  // page whose vendor files are missing, which must still step by plain links.
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
}
