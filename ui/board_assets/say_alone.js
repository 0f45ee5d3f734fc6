// A word a component says by itself, not in answer to a tap on it: a timer's look
// (ticker.js), "I drew" (the board's and the quick round's ready). Streamlit 1.67 sends
// every widget update made before its next task turn as ONE rerun, for the part of the
// page the first of them names (WidgetStateManager.scheduleFlush: a setTimeout(0), then
// "Multiple different fragmentIds detected in a single batch"). A child's tap landing in
// that gap went out with the word: the server ran the tap's callback (the answer saved,
// the next puzzle made) but ran again only the part that spoke, so the tapped part kept
// the old screen (tests/test_classroom_load.py in CI: "Next puzzle" tapped, no new board;
// reproduced with the notice's look every 0.3 s: its tick and the tap in one rerun).
// So a click that comes while such a word waits to leave is held, and clicked again on the
// same spot just after the word has left: it then goes as a rerun of its own part.
// Shared by every component's copy of this file (each component's script is its own module).
const SAY_ALONE = (window.__escobaSayAlone ||= { waiting: 0, held: [], listening: false });
SAY_ALONE.again ||= new WeakSet();  // our own clicks again: never held

function holdClick(event) {
  if (!SAY_ALONE.waiting || SAY_ALONE.again.has(event)) return;
  const target = event.composedPath()[0];
  if (!(target instanceof Element)) return;
  event.stopImmediatePropagation();
  event.preventDefault();
  SAY_ALONE.held.push({ target, x: event.clientX, y: event.clientY, detail: event.detail });
}

function clickAgain({ target, x, y, detail }) {
  if (!target.isConnected) return;  // its part was drawn again meanwhile: nothing to tap
  const click = new MouseEvent("click", { bubbles: true, cancelable: true, composed: true,
    view: window, clientX: x, clientY: y, detail });
  SAY_ALONE.again.add(click);
  target.dispatchEvent(click);
}

// `say` calls the component's setTriggerValue or setStateValue; a click on the page
// before Streamlit's send (queued first, so it runs first) waits for it.
function sayAlone(say) {
  if (!SAY_ALONE.listening) {  // one listener for the window, before every other one
    window.addEventListener("click", holdClick, true);
    SAY_ALONE.listening = true;
  }
  SAY_ALONE.waiting += 1;
  try {
    say();
  } finally {
    setTimeout(() => {
      SAY_ALONE.waiting -= 1;
      if (SAY_ALONE.waiting) return;
      for (const click of SAY_ALONE.held.splice(0)) clickAgain(click);
    }, 0);
  }
}
