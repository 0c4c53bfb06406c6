// Positions the server computes, applied through the CSSOM: the Content-Security-Policy
// (style-src 'self') blocks style= attributes in HTML, not styles a script sets.
//   data-left="37.5"       -> style.left = 37.5%  (the replay's scrub-bar markers)
//   data-min-width="640"   -> style.minWidth = 640px (a hex board's drawing, campaigns)
// Applied on load and to every piece of page htmx swaps in.

function apply(root) {
  const scope = root instanceof Element || root instanceof Document ? root : document;
  const found = [...scope.querySelectorAll("[data-left], [data-min-width]")];
  if (scope instanceof Element && scope.matches("[data-left], [data-min-width]")) found.push(scope);
  for (const el of found) {
    const left = Number.parseFloat(el.dataset.left ?? "");
    if (Number.isFinite(left)) el.style.left = `${left}%`;
    const minWidth = Number.parseFloat(el.dataset.minWidth ?? "");
    if (Number.isFinite(minWidth)) el.style.minWidth = `${minWidth}px`;
  }
}

apply(document);
document.addEventListener("htmx:load", (event) => apply(event.target));
