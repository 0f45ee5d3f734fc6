// What a child meets on one screen (tests/test_browser_screen.py, issue 23): every
// control's box (the board's shadow root included), the words to read before the first
// action, and the lowest action. Page.evaluate(this, {actions}) returns plain data.
//
// - A control: a button, link, input, summary or ARIA widget that is drawn (not hidden,
//   not aria-hidden, not inside a closed disclosure, not off the screen sideways: the
//   folded sidebar); a control inside another is the same target.
// - An action: what a lesson level or a Play turn is done with (cards to tap, Play, Lay
//   it down, ¡Renuncio!, the answers, Try again, Next).
// - A word: a run of text with a letter in it (numbers and symbols are not read as
//   words), drawn in the main area outside every control, whose top is above the first
//   action's top. ``words`` are those a child must read to act: every instruction and
//   message (the goal, what the last try did, an opened intro, the board's readout and
//   warnings; a finished round's question's goal, drawn as a heading), not the names and
//   labels (headings, the areas' titles and "the table is empty", a won pile's title and
//   its groups' names, player names and scores) nor the log of what just happened, nor the
//   one-time "this device has no voice" note (for a grown-up; it comes about 1.5 s after
//   the board, so counting it made the measure depend on timing); ``all_words`` counts
//   those too.
(opts) => {
  const hosts = [...document.querySelectorAll('[data-testid=stBidiComponentIsolated]')];
  const roots = [document, ...hosts.map((h) => h.shadowRoot).filter(Boolean)];
  const vis = (el) => {
    if (!el.isConnected) return false;
    for (let e = el; e; e = e.parentElement || (e.getRootNode() && e.getRootNode().host)) {
      if (e.nodeType !== 1) continue;
      if (e.getAttribute && e.getAttribute('aria-hidden') === 'true') return false;
      const cs = getComputedStyle(e);
      if (cs.display === 'none' || cs.visibility === 'hidden' || cs.opacity === '0') return false;
      if (e.tagName === 'DETAILS' && !e.open && e !== el) {
        // only the summary of a closed disclosure is shown
        if (!el.closest || !el.closest('summary') || el.closest('details') !== e) return false;
      }
    }
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const CONTROL = 'button, a[href], input:not([type=hidden]), select, textarea, summary, [role=button], [role=tab], [role=radio], [role=checkbox], [role=switch], [role=option]';
  const controls = [];
  for (const root of roots) {
    for (const el of root.querySelectorAll(CONTROL)) {
      if (!vis(el)) continue;
      // a control inside another control is the same target
      const outer = el.parentElement && el.parentElement.closest(CONTROL);
      if (outer && vis(outer)) continue;
      const inMain = !!(el.closest('[data-testid=stMain]') || (el.getRootNode().host && el.getRootNode().host.closest('[data-testid=stMain]')));
      const inSide = !!el.closest('[data-testid=stSidebar]');
      const inHeader = !!el.closest('header, [data-testid=stHeader], [data-testid=stToolbar]');
      if (!inMain && !inSide && !inHeader) continue;
      const r = el.getBoundingClientRect();
      if (r.right <= 0 || r.left >= innerWidth) continue;  // off the screen sideways
      // an <input> inside a visible label/box: measure its clickable wrapper
      let box = r;
      if (el.tagName === 'INPUT' && (el.type === 'checkbox' || el.type === 'radio')) {
        const lab = el.closest('label');
        if (lab) box = lab.getBoundingClientRect();
      }
      const name = (el.getAttribute('aria-label') || el.innerText || el.value || el.getAttribute('data-testid') || el.tagName).trim().replace(/\s+/g, ' ').slice(0, 40);
      controls.push({name, x: box.left, y: box.top, w: box.width, h: box.height,
                     where: inMain ? 'main' : inSide ? 'sidebar' : 'header',
                     action: el.matches(opts.actions || '.eb-card:not(.eb-still), .eb-play, .eb-renuncio, .eb-next, [class*="st-key-lesson_answer_"] button, .st-key-lesson_retry button, .st-key-lesson_next_round button, .st-key-lesson_advance button') || !!el.closest('[class*="st-key-lesson_answer_"], .st-key-lesson_retry, .st-key-lesson_next_round')});
    }
  }
  const actions = controls.filter((c) => c.action);
  const firstTop = actions.length ? Math.min(...actions.map((a) => a.y)) : Infinity;
  // words: visible text outside controls in the main area, above the first action
  const words = [];
  const allWords = [];
  const LABELS = 'h1, h2, h3, h4, h5, h6, .eb-title, .eb-label, .eb-seat, .eb-header, .eb-events, .eb-mine, .lesson-pile-title, .eb-novoice';
  // a question's goal is drawn large (a heading) but is the instruction: read
  const GOAL = '.st-key-lesson_goal';
  const isControlText = (node) => { const p = node.parentElement; return !!(p && p.closest(CONTROL + ', label, [data-testid=stWidgetLabel]')); };
  for (const root of roots) {
    const base = root === document ? document.querySelector('[data-testid=stMain]') : root;
    if (!base) continue;
    if (root !== document && !(root.host && root.host.closest('[data-testid=stMain]'))) continue;
    const walker = document.createTreeWalker(base, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent.trim();
      if (!text || isControlText(n)) continue;
      const p = n.parentElement;
      if (!p || !vis(p) || p.closest('style, script, .eb-sr, [role=img]')) continue;
      const range = document.createRange(); range.selectNodeContents(n);
      const r = range.getBoundingClientRect();
      if (r.width === 0 || r.top >= firstTop) continue;
      const label = !!p.closest(LABELS) && !p.closest(GOAL);
      for (const w of text.split(/\s+/)) {
        if (!/\p{L}/u.test(w)) continue;
        allWords.push(w);
        if (!label) words.push(w);
      }
    }
  }
  const lowest = actions.length ? Math.max(...actions.map((a) => a.y + a.h)) : null;
  // the closest two controls (Chebyshev gap between boxes; nested ones skipped above)
  let closest = null;
  for (let i = 0; i < controls.length; i++) for (let j = i + 1; j < controls.length; j++) {
    const a = controls[i], b = controls[j];
    const dx = Math.max(0, b.x - (a.x + a.w), a.x - (b.x + b.w));
    const dy = Math.max(0, b.y - (a.y + a.h), a.y - (b.y + b.h));
    const gap = Math.max(dx, dy);
    if (!closest || gap < closest.gap) closest = {gap, a: a.name, b: b.name};
  }
  const smallest = controls.length ? controls.reduce((m, c) => (Math.min(c.w, c.h) < Math.min(m.w, m.h) ? c : m)) : null;
  return {words, count: words.length, all_words: allWords.length, all_word_list: allWords, controls, actions: actions.length, lowest,
          smallest, closest, scrollY: window.scrollY, height: innerHeight};
}
