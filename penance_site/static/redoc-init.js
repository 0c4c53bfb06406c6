// Starts ReDoc on the API reference page (templates/drf_spectacular/redoc.html) from a
// file, not an inline script, which the Content-Security-Policy refuses. ReDoc writes its
// styles into <style> elements as it renders; the page's policy allows those by a nonce
// made for this one response (penance_site/urls.py), which ReDoc's `nonce` option puts
// on each of them.
const container = document.getElementById("redoc-container");
window.Redoc.init(container.dataset.specUrl, { nonce: container.dataset.styleNonce }, container);
