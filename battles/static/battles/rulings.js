// The rulings page's filter: narrows the rulings to those whose ID or text holds every word
// typed, hides chapters left empty and says how many match. Without JavaScript the page is
// the whole list with its table of contents.
const input = document.querySelector("[data-rulings-filter]");
const count = document.querySelector("[data-rulings-count]");
const none = document.querySelector("[data-rulings-none]");
const rulings = [...document.querySelectorAll("[data-ruling]")].map((el) => ({
  el,
  text: el.textContent.toLowerCase(),
}));
const sections = [...document.querySelectorAll("[data-rulings-section]")];
// While a filter is typed the matches are what the reader wants: the contents step aside.
const toc = document.querySelector("[data-rulings-toc]");

function filter() {
  const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
  let shown = 0;
  for (const r of rulings) {
    const match = words.every((w) => r.text.includes(w));
    r.el.hidden = !match;
    if (match) shown += 1;
  }
  for (const s of sections) {
    s.hidden = !s.querySelector("[data-ruling]:not([hidden])");
  }
  none.hidden = shown > 0;
  if (toc) toc.hidden = words.length > 0;
  count.textContent = words.length
    ? `${shown} of ${rulings.length} ${rulings.length === 1 ? "ruling" : "rulings"} match`
    : `${rulings.length} rulings`;
}

if (input) {
  input.addEventListener("input", filter);
  // A link such as /rules/?q=cover opens the page already filtered.
  const q = new URLSearchParams(window.location.search).get("q");
  if (q) input.value = q;
  filter();
}
