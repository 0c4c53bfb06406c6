// Which changes of a form send its live check, decided here instead of in an htmx trigger
// filter (hx-trigger="change[...]"): htmx evaluates such filters with new Function(),
// which the Content-Security-Policy (script-src 'self', no 'unsafe-eval') refuses.
//
// A form with data-check-on-change sends its check (hx-trigger="check-change") on any
// change except of the fields it names (the wizard's "placing" radio only chooses which
// pilot a click on the board places). A form with data-check-on-number-input also sends
// one (hx-trigger="check-input") while a number is typed (the deck builder's counts);
// other inputs, such as the catalogue search, have triggers of their own.

function skipped(form) {
  return new Set((form.dataset.checkOnChange || "").split(/\s+/).filter(Boolean));
}

document.addEventListener("change", (event) => {
  const form = event.target.closest?.("form[data-check-on-change]");
  // A number typed in a form that checks while typing was checked already. Checking it
  // again as it loses focus would start a check as the player clicks Save, and htmx holds
  // the form's own submission back while a check of that form is under way.
  if (form?.matches("[data-check-on-number-input]") && event.target.type === "number") return;
  if (form && !skipped(form).has(event.target.name)) {
    form.dispatchEvent(new CustomEvent("check-change"));
  }
});

document.addEventListener("input", (event) => {
  const form = event.target.closest?.("form[data-check-on-number-input]");
  if (form && event.target.type === "number") {
    form.dispatchEvent(new CustomEvent("check-input"));
  }
});
