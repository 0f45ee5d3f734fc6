// "Working…" on a button the moment it is tapped (issue 29; ui/busy.py). A tap on the
// teacher's "Close the vote" waited seconds for the server with no sign, and a second
// tap was easy. Runs in the page itself: one click listener for the whole document,
// kept across reruns. A tapped button of the watched keys is marked busy at once (its
// words covered by "⏳ Working…", no second tap, aria-busy); the marks go when the
// server's answer to that tap has drawn the part again (data.answered moved on), or
// after MAX_MS whatever happens.
const MAX_MS = 20000;
const B = (window.__escobaBusy ||= { keys: [], text: "", answered: null, timer: null,
  listening: false });

function keyOf(button) {
  const holder = button.closest("[class*='st-key-']");
  if (!holder) return null;
  const cls = [...holder.classList].find((c) => c.startsWith("st-key-"));
  return cls ? cls.slice("st-key-".length) : null;
}

function watched(key) {
  return !!key && B.keys.some((k) => (k.endsWith("*") ? key.startsWith(k.slice(0, -1)) : key === k));
}

function clear() {
  clearTimeout(B.timer);
  for (const b of document.querySelectorAll("button[data-esc-busy]")) {
    b.removeAttribute("data-esc-busy");
    b.removeAttribute("aria-busy");
    b.removeAttribute("aria-disabled");
  }
  for (const el of document.querySelectorAll(".esc-busy-say")) el.remove();
}

function onClick(e) {
  const button = e.target.closest && e.target.closest("button");
  if (!button || !watched(keyOf(button))) return;
  if (button.hasAttribute("data-esc-busy")) {  // tapped again while it works: nothing
    e.preventDefault();
    e.stopImmediatePropagation();
    return;
  }
  button.setAttribute("data-esc-busy", B.text);
  button.setAttribute("aria-busy", "true");
  button.setAttribute("aria-disabled", "true");
  const say = document.createElement("span");  // said by a screen reader too
  say.className = "esc-busy-say";
  say.setAttribute("role", "status");
  say.textContent = B.text;
  document.body.appendChild(say);
  clearTimeout(B.timer);
  B.timer = setTimeout(clear, MAX_MS);
}

function style() {
  if (document.getElementById("esc-busy-style")) return;
  const css = document.createElement("style");
  css.id = "esc-busy-style";
  css.textContent = `
button[data-esc-busy] { position: relative; cursor: progress; }
button[data-esc-busy]::after { content: attr(data-esc-busy); position: absolute; inset: 0;
  display: flex; align-items: center; justify-content: center; border-radius: inherit;
  background: #5A6B7B; color: #FFFFFF; font-weight: 700;
  animation: esc-busy-pulse 1.2s ease-in-out infinite alternate; }
@keyframes esc-busy-pulse { from { opacity: 1; } to { opacity: 0.7; } }
@media (prefers-reduced-motion: reduce) { button[data-esc-busy]::after { animation: none; } }
.esc-busy-say { position: absolute; width: 1px; height: 1px; overflow: hidden;
  clip: rect(0, 0, 0, 0); white-space: nowrap; }`;
  document.head.appendChild(css);
}

export default function (component) {
  const { data } = component;
  if (!data) return;
  style();
  B.keys = data.keys || [];
  B.text = data.text || "…";
  if (data.answered !== B.answered) {
    B.answered = data.answered;
    clear();
  }
  if (!B.listening) {
    document.addEventListener("click", onClick, true);
    B.listening = true;
  }
}
