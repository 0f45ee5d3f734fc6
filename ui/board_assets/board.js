// The tappable Escoba board (st.components.v2): the child's hand, the table, the other
// players, "what just happened", the running sum and the Play button.
//
// Python sends everything this draws (trainer/board_view.py builds it: only what the
// player may see, every text translated); this file keeps the selection, shows it at
// once (no server round trip), and sends one action when Play is tapped. The engine on
// the server judges that action; the ✓ here comes from its list of legal moves.
//
// Streamlit calls the default export on every run of the page with the new data, on
// the same parent element: the render is idempotent and the selection survives as
// long as the position (data.position) is the same.

const STATE = new WeakMap();
// Every movement of one redraw is over within this many milliseconds.
const MOTION_MS = 980;
const REDUCED = () => window.matchMedia &&
  window.matchMedia("(prefers-reduced-motion: reduce)").matches;

function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => ({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
  })[c]);
}

function fillText(template, params) {
  return String(template ?? "").replace(/\{(\w+)\}/g, (m, k) =>
    Object.prototype.hasOwnProperty.call(params, k) ? String(params[k]) : m);
}
const fill = fillText;

// An SVG string drawn by our own Python (trainer/cards.py: names escaped there), shown
// as decoration: the button around it carries the accessible name.
function face(data, id) {
  const f = data.faces[id];
  if (!f) return "";
  return f.svg.replace("<svg ", '<svg aria-hidden="true" focusable="false" ');
}

// A card button's picture: the same SVG as an <img> (decorative: the button's aria-label
// names the card). Drawn inline, its letters and numbers ("3", "c", "3") would be the
// button's visible text, which its name ("<card name>, <value>") does not contain (WCAG 2.5.3,
// axe's label-content-name-mismatch). One data: URL per face, made once.
const FACE_URLS = new Map();
function faceImage(data, id) {
  const f = data.faces[id];
  if (!f) return "";
  let url = FACE_URLS.get(f.svg);
  if (!url) {
    url = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(f.svg);
    FACE_URLS.set(f.svg, url);
  }
  return `<img class="eb-face" alt="" draggable="false" src="${url}">`;
}

function moveKey(card, take, order) {
  const sorted = [...take].sort((a, b) => order[a] - order[b]);
  return `${card}|${sorted.join(".")}`;
}

// ---------------------------------------------------------------- drawing ----------

function cardButton(data, id, group, opts) {
  const f = data.faces[id] || { aria: id, name: id };
  const badge = opts.badge;
  let label = f.aria;
  if (badge) label += ". " + badge.text;
  if (opts.lit) label += ". " + data.texts.suggested;
  const classes = ["eb-card"];
  if (opts.lit) classes.push("eb-lit");
  if (!opts.enabled) classes.push("eb-still");
  return `<button type="button" class="${classes.join(" ")}" data-id="${esc(id)}"
    data-group="${group}" aria-pressed="false" aria-label="${esc(label)}"
    ${opts.enabled ? "" : 'aria-disabled="true"'} tabindex="-1">${faceImage(data, id)}
    ${opts.lit ? '<span class="eb-star" aria-hidden="true">★</span>' : ""}
    ${badge && badge.count ? `<span class="eb-ways" aria-hidden="true">${esc(badge.count)}</span>` : ""}
    <span class="eb-tick" aria-hidden="true">✓</span></button>`;
}

// A captured pile: a small face-down stack with its count (the status line says it in
// words for screen readers); captured cards fly here.
function pileBadge(data, seat, count) {
  const back = (data.back || "").replace("<svg ", '<svg aria-hidden="true" ');
  return `<span class="eb-pile" data-pile="${seat}" aria-hidden="true"><span class="eb-pileback">${back}</span>${esc(count)}</span>`;
}

// issue 26 (coach): a hand of more than three cards (7-card hands) is one back and its
// count, so that three or four seats fit a phone and a tablet without covering names.
const BACKS_SHOWN = 3;
function countedBacks(data, seat) {
  const back = (data.back || "").replace("<svg ", '<svg aria-hidden="true" ');
  return `<div class="eb-backs eb-counted" role="img" aria-label="${esc(seat.status)}">
    <span class="eb-back" aria-hidden="true">${back}</span><b aria-hidden="true">× ${seat.count}</b></div>`;
}

function seatBox(data, seat) {
  let cards;
  if (seat.cards && seat.cards.length) {
    cards = `<div class="eb-open">${seat.cards.map((id) =>
      `<span class="eb-mini" role="img" aria-label="${esc(data.faces[id]?.aria || id)}">${face(data, id)}</span>`).join("")}</div>`;
  } else if (seat.count > BACKS_SHOWN) {
    cards = countedBacks(data, seat);
  } else {
    const back = data.back || "";
    cards = `<div class="eb-backs" role="img" aria-label="${esc(seat.status)}">${
      Array.from({ length: seat.count }, () =>
        `<span class="eb-back" aria-hidden="true">${back.replace("<svg ", '<svg aria-hidden="true" ')}</span>`).join("")}</div>`;
  }
  return `<div class="eb-box eb-seat${seat.partner ? " eb-partner" : ""}" data-seat="${seat.seat}">
    <div><b>${esc(seat.name)}</b>${seat.turn ? ' <span aria-hidden="true">⬅️</span>' : ""}${
      seat.partner ? ` <span class="eb-partner-mark">🤝 ${esc(seat.partner)}</span>` : ""}
    ${countsOf(seat)}</div>
    ${cards}${pileBadge(data, seat.seat, seat.pile)}</div>`;
}

function eventsBox(data, fresh, step) {
  if (!data.events.length) return "";
  let n = 0;
  const lines = data.events.map((ev) => {
    const isFresh = fresh.has(ev.id);
    const delay = isFresh ? ` style="animation-delay:${(n++ * step) / 1000}s"` : "";
    const cards = [ev.card, ...ev.take].filter(Boolean).map((id) =>
      `<span class="eb-tiny" aria-hidden="true">${face(data, id)}</span>`).join("");
    return `<li class="eb-event${isFresh ? " eb-fresh" : ""}"${delay}>
      <span aria-hidden="true">${ev.escoba ? "🧹" : "•"}</span> ${esc(ev.line)}
      <span class="eb-evcards">${cards}</span></li>`;
  }).join("");
  return `<div class="eb-box eb-events"><b class="eb-small">${esc(data.texts.what_happened)}</b>
    <ul>${lines}</ul></div>`;
}

function meterBox(meter) {
  if (!meter || meter.band === "empty") return "";
  const pct = (v) => Math.max(0, Math.min(100, (100 * v) / meter.max));
  const marker = meter.band === "empty" ? "" :
    `<span class="eb-marker" style="left:${pct(meter.total)}%"></span>`;
  return `<div class="eb-meter eb-${meter.band}">
    <div class="eb-bar" aria-hidden="true"><span class="eb-zone"
      style="left:${pct(meter.low)}%;width:${pct(meter.high + 1) - pct(meter.low)}%"></span>${marker}</div>
    <div class="eb-metertext">${meter.band === "risk" ? "⚠️ " : ""}${esc(meter.text)}</div></div>`;
}

// issue 26 (coach): the rules in force as a row of icons; tapping one reads it.
function rulesBox(rules) {
  return `<span class="eb-rules">${rules.map((r) => `<details class="eb-rule">
    <summary aria-label="${esc(r.label)}" title="${esc(r.label)}">${esc(r.icon)}</summary>
    <span class="eb-rule-text"><b>${esc(r.label)}</b>: ${esc(r.text)}</span></details>`).join("")}</span>`;
}

function render(root, data, st) {
  const sel = data.select;
  const hints = data.hints || {};
  const lit = new Set(hints.lit || []);
  const badges = hints.badges || {};
  const parts = [];
  if (data.header && data.header.line !== undefined) {
    // One line of plain words (the class's vote: who plays and the score, no icons).
    parts.push(`<div class="eb-header"><span class="eb-headline">${esc(data.header.line)}</span></div>`);
  } else if (data.header) {
    const h = data.header;
    parts.push(`<div class="eb-header">${headerCounts(data, h)}${
      h.sides.map((s) => `<span><b>${esc(s.name)}</b> ${pointsOf(s)}</span>`).join("")
    }${Array.isArray(h.rules) ? rulesBox(h.rules) : rulesDisclosure(h)}</div>`);
  }
  if (data.celebrate) parts.push(celebrateBox(data));
  else if (data.intro) parts.push(`<p class="eb-intro">${esc(data.intro)}</p>`);
  const fresh = st.fresh;
  // New lines of "what just happened" appear one after the other (each fades in 0.35 s).
  const step = fresh.size ? Math.min(300, (MOTION_MS - 380) / fresh.size) : 0;
  // The other players above the table; "what just happened" after the controls (issue 23:
  // the words before the first action are the goal's; the cards' flight shows the move).
  if (data.seats.length) {
    parts.push(`<div class="eb-band">${data.seats.map((s) => seatBox(data, s)).join("")}</div>`);
  }
  const taps = (group) => sel.tap === group || sel.tap === "both";
  const table = data.table.length ?
    data.table.map((id) => cardButton(data, id, "table", {
      enabled: sel.table === "multi" || taps("table"), lit: lit.has(id) })).join("") :
    (data.celebrate && data.celebrate.escoba ?
      `<p class="eb-broom eb-label"><span aria-hidden="true">🧹</span> ${esc(data.texts.table_empty)}</p>` :
      `<p class="eb-dim eb-label">${esc(data.texts.table_empty)}</p>`);
  const tableTitle = data.table_title || data.texts.table_label;
  let main = `<section class="eb-area eb-table" aria-label="${esc(tableTitle)}">
      <h2 class="eb-title">${esc(tableTitle)}</h2>
      <div class="eb-cards" role="group" aria-label="${esc(tableTitle)}">${table}</div>
      ${meterBox(hints.meter)}</section>`;
  if (data.hand.length) {
    const title = data.hand_title || "";
    const hand = data.hand.map((id) => cardButton(data, id, "hand", {
      enabled: sel.hand === "single" || taps("hand"), lit: lit.has(id),
      badge: badges[id] })).join("");
    main += `<section class="eb-area eb-hand" aria-label="${esc(title)}">
      <h2 class="eb-title">${esc(title)}</h2>
      <div class="eb-cards" role="group" aria-label="${esc(title)}">${hand}</div>
      ${data.me ? `<div class="eb-dim eb-small eb-mine">${countsOf(data.me)}
        ${pileBadge(data, data.me.seat, data.me.pile)}</div>` : ""}
      </section>`;
  } else if (data.me) {
    main += pileBadge(data, data.me.seat, data.me.pile);
  }
  parts.push(`<div class="eb-main">${main}</div>`);
  if (data.interactive && !sel.tap) {
    const b = data.buttons;
    parts.push(`<div class="eb-controls">
      <p class="eb-refused" role="alert" hidden></p>
      <p class="eb-readout" role="status" aria-live="polite"></p>
      <div class="eb-warn" role="status" aria-live="polite" hidden></div>
      <div class="eb-buttons"><button type="button" class="eb-play" data-action="${esc(b.action || "play")}">${esc(b.play)}</button>
      ${b.renuncio ? `<button type="button" class="eb-renuncio" data-action="renuncio">${esc(b.renuncio)}</button>` : ""}
      ${b.hint ? `<button type="button" class="eb-hint" data-action="hint" aria-label="${esc(b.hint_name || b.hint)}" title="${esc(b.hint_name || b.hint)}">${esc(b.hint)}</button>` : ""}
      </div></div><div class="eb-bar-end" aria-hidden="true"></div>`);
  }
  if (data.events.length) parts.push(`<div class="eb-band eb-after">${eventsBox(data, fresh, step)}</div>`);
  root.innerHTML = parts.join("");
  // One tab stop per group of cards (arrow keys move inside it).
  for (const group of ["hand", "table"]) {
    const first = root.querySelector(`.eb-card[data-group="${group}"]:not(.eb-still)`);
    if (first) first.tabIndex = 0;
  }
}

// ------------------------------------------------------------- selection ----------

// The sum a choice makes, by the game's rule (the server says which, never the number
// alone): Escoba adds the played card to the table cards ("8 + 7 = 15"); Scopa adds the
// table cards only, and the played card's value is the target ("3 + 4 = 7").
function sumToCard(data) {
  return data.sum_rule === "card";
}

// Scopa: every capture the engine allows this hand card is one table card of its own
// value (an equal card is taken before any sum): the board asks for that card, not a sum.
function equalFirst(data, hand, need) {
  const takes = Object.keys(data.moves || {}).filter((k) => k.startsWith(`${hand}|`))
    .map((k) => k.slice(hand.length + 1)).filter((take) => take);
  return takes.length > 0 && takes.every((take) =>
    !take.includes(".") && data.faces[take]?.value === need);
}

function needOf(data, st) {
  if (!sumToCard(data)) return data.need;
  return st.hand ? data.faces[st.hand]?.value ?? null : null;
}

function termsOf(data, st) {
  const order = Object.fromEntries(data.table.map((id, i) => [id, i]));
  const take = [...st.take].sort((a, b) => order[a] - order[b]);
  const ids = st.hand ? [...take, st.hand] : take;
  const summed = sumToCard(data) ? take : ids;
  const values = summed.map((id) => data.faces[id]?.value ?? null);
  const plain = values.filter((v) => v !== null);
  return {
    take, ids, order, jokers: values.length - plain.length,
    total: plain.reduce((a, b) => a + b, 0),
    expr: values.map((v) => (v === null ? "🃏" : String(v))).join(" + "),
  };
}

function update(root, data, st) {
  for (const btn of root.querySelectorAll(".eb-card")) {
    const id = btn.dataset.id;
    const on = btn.dataset.group === "hand" ? st.hand === id : st.take.has(id);
    btn.setAttribute("aria-pressed", on ? "true" : "false");
  }
  const readout = root.querySelector(".eb-readout");
  const play = root.querySelector(".eb-play");
  if (!readout || !play) return;
  const T = data.texts;
  const sel = data.select;
  const need = needOf(data, st);
  const s = termsOf(data, st);
  // Scopa's templates keep {need}: it is the card picked, known only here.
  const fill = (template, params) => fillText(template, { need: need ?? "?", ...params });
  const name = st.hand ? data.faces[st.hand]?.name || st.hand : "";
  const key = st.hand ? moveKey(st.hand, s.take, s.order) : null;
  const legal = data.moves ? (key !== null && key in data.moves) : null;
  // Asso piglia tutto: this hand card takes the whole table by right, not by a sum.
  const takesAll = !!st.hand && (data.takes_all || []).includes(st.hand);
  let text;
  let ready;
  if (sel.hand === "single" && !st.hand && sumToCard(data)) {
    text = T.pick_card;  // the target is the card: nothing to add up to yet
    ready = false;
  } else if (sel.hand === "single" && !st.hand) {
    text = s.take.length ? fill(T.need_more, { expr: s.expr, total: s.total,
      more: Math.max(0, need - s.total) }) + " " + T.pick_card : T.pick_card;
    ready = false;
  } else if (!s.ids.length) {
    text = T.pick_table;
    ready = false;
  } else if (sumToCard(data) && st.hand && !s.take.length && !sel.lay) {
    text = fill(T.pick_table, {});  // Scopa's puzzle card: no table card yet, no "= 0"
    ready = false;
  } else if (takesAll) {
    const all = s.take.length === data.table.length;
    text = all ? T.ace_all || "" : T.ace_pick || "";
    ready = true;
  } else if (st.hand && !s.take.length && sel.lay) {
    text = data.kind === "game" && legal === false && sumToCard(data) ?
      fill(equalFirst(data, st.hand, need) ? T.pick_equal : T.pick_table, {}) :
      data.kind === "game" && legal === false ?
      fill(T.need_more, { expr: s.expr, total: s.total, more: Math.max(0, need - s.total) }) :
      fill(T.lay, { card: name });
    ready = true;
  } else if (s.jokers) {
    text = fill(T.joker, { expr: s.expr });
    ready = true;
  } else if (s.total < need) {
    text = fill(T.need_more, { expr: s.expr, total: s.total, more: need - s.total });
    ready = s.take.length > 0;
  } else if (s.total === need) {
    // No ✓ where the engine refuses it, nor for a Scopa sum beside an equal card.
    const noTick = legal === false || (data.equal_first && s.take.length > 1);
    text = fill(noTick ? T.made : T.made_check, { expr: s.expr, total: s.total });
    ready = true;
  } else {
    text = fill(T.too_much, { expr: s.expr, total: s.total, over: s.total - need });
    ready = s.take.length > 0;
  }
  if (s.ids.length < sel.min_values && s.take.length) ready = false;
  if (data.kind === "game") ready = !!st.hand;  // the engine judges every other case
  // A move the engine refused ("1 + 3 + 2 = 6 — you need 15"), until the next tap.
  const refused = root.querySelector(".eb-refused");
  const said = data.refused && st.dismissed !== data.refused.id ? data.refused.text : "";
  refused.hidden = !said;
  refused.textContent = said;
  readout.textContent = text;
  readout.classList.toggle("eb-ok", takesAll ? s.take.length === data.table.length :
    (s.total === need && !s.jokers && legal !== false &&
     !(data.equal_first && s.take.length > 1)) ||
    (sumToCard(data) && legal === true && s.take.length > 0));
  const warn = root.querySelector(".eb-warn");
  const w = legal && data.moves[key] && data.moves[key].warn ? data.moves[key] : null;
  warn.hidden = !w;
  warn.innerHTML = w ? warningHtml(w) : "";
  const b = data.buttons;
  const laying = st.hand && !s.take.length && sel.lay && b.lay && legal !== false && !takesAll;
  play.textContent = laying ? b.lay : b.play;
  play.disabled = !ready || st.busy;
  play.setAttribute("aria-busy", st.busy ? "true" : "false");
}

// A refusal makes the action bar taller, and the sticky bar then covers the cards above
// it (on a phone, the whole hand). Scroll the board down to the bar's own place: the
// table and the hand show above it, as far as the screen allows.
function uncoverCards(root) {
  const bar = root.querySelector(".eb-controls");
  const cards = root.querySelector(".eb-main");
  const end = root.querySelector(".eb-bar-end");
  if (!bar || !cards || !end) return;
  if (cards.getBoundingClientRect().bottom <= bar.getBoundingClientRect().top + 1) return;
  end.scrollIntoView({ block: "end", behavior: REDUCED() ? "auto" : "smooth" });
}

// Streamlit's header over the top of the page (a phone's is about 4 rem).
const HEADER_PX = 72;

function scrollerOf(el) {
  let node = el.getRootNode().host || el;
  while (node && node !== document.body) {
    const style = getComputedStyle(node);
    if (/(auto|scroll)/.test(style.overflowY) && node.scrollHeight > node.clientHeight) return node;
    node = node.parentElement;
  }
  return document.scrollingElement;
}

function bringBackQuestion(root) {
  const intro = root.querySelector(".eb-intro");
  if (!intro) return;
  const top = intro.getBoundingClientRect().top;
  if (top >= HEADER_PX) return;
  // The answers are the page's, under the board (ui.lesson_view's "lesson_answers").
  const answers = document.querySelector(".st-key-lesson_answers");
  const room = answers ? window.innerHeight - answers.getBoundingClientRect().bottom : Infinity;
  const by = Math.min(HEADER_PX - top, room);
  if (by > 0) scrollerOf(root).scrollBy({ top: -by, behavior: REDUCED() ? "auto" : "smooth" });
}

// ------------------------------------------------------------- movement ----------

function rectsOf(root) {
  const base = root.getBoundingClientRect();
  const at = (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.left - base.left, y: r.top - base.top, w: r.width, h: r.height };
  };
  const cards = {};
  for (const el of root.querySelectorAll(".eb-card")) cards[el.dataset.id] = at(el);
  const seats = {};
  for (const el of root.querySelectorAll(".eb-seat")) seats[el.dataset.seat] = at(el);
  return { cards, seats };
}

function ghost(root, data, id, from, to, delay, duration, fade) {
  const g = document.createElement("div");
  g.className = "eb-ghost";
  g.innerHTML = face(data, id);
  g.style.left = `${from.x}px`;
  g.style.top = `${from.y}px`;
  g.style.width = `${from.w}px`;
  g.style.height = `${from.h}px`;
  root.appendChild(g);
  const dx = to.x + to.w / 2 - (from.x + from.w / 2);
  const dy = to.y + to.h / 2 - (from.y + from.h / 2);
  const scale = Math.max(0.3, Math.min(1.2, to.w / from.w));
  const anim = g.animate([
    { transform: "translate(0,0) scale(1)", opacity: 1 },
    { transform: `translate(${dx}px,${dy}px) scale(${scale})`, opacity: fade ? 0.2 : 1 },
  ], { duration, delay, easing: "cubic-bezier(.3,.7,.4,1)", fill: "both" });
  anim.onfinish = () => g.remove();
  setTimeout(() => g.remove(), delay + duration + 200);
}

function cheer(root, text, delay, duration, extra) {
  const c = document.createElement("div");
  c.className = "eb-cheer" + (extra ? " " + extra : "");
  c.textContent = text;
  c.setAttribute("aria-hidden", "true");
  root.appendChild(c);
  c.animate([
    { transform: "translate(-50%,-50%) scale(0.4)", opacity: 0 },
    { transform: "translate(-50%,-50%) scale(1.15)", opacity: 1, offset: 0.3 },
    { transform: "translate(-50%,-50%) scale(1)", opacity: 1, offset: 0.75 },
    { transform: "translate(-50%,-50%) scale(1)", opacity: 0 },
  ], { duration, delay, fill: "both" }).onfinish = () => c.remove();
  setTimeout(() => c.remove(), delay + duration + 200);
}

// Captured cards fly to the capturer's pile, a laid card to its place on the table,
// one event after the other; everything is over in under a second.
function animate(root, data, before, st) {
  if (!st.fresh.size || !before) return;
  if (REDUCED()) {
    for (const ev of data.events.filter((e) => st.fresh.has(e.id) && e.take.length)) {
      soundHook(root, ev.escoba ? "escoba" : "capture", ev);
    }
    return;
  }
  const after = rectsOf(root);
  const events = data.events.filter((e) => st.fresh.has(e.id));
  const per = Math.min(450, (MOTION_MS - 80) / events.length);
  const tableArea = root.querySelector(".eb-table .eb-cards");
  const base = root.getBoundingClientRect();
  const areaRect = tableArea ? tableArea.getBoundingClientRect() : base;
  const tableCentre = { x: areaRect.left - base.left + areaRect.width / 2 - 30,
    y: areaRect.top - base.top + 10, w: 60, h: 90 };
  events.forEach((ev, k) => {
    const delay = k * per;
    const duration = per * 0.9;
    const pileEl = root.querySelector(`[data-pile="${ev.seat}"]`);
    const pile = pileEl ? (() => {
      const r = pileEl.getBoundingClientRect();
      return { x: r.left - base.left, y: r.top - base.top, w: r.width, h: r.height };
    })() : tableCentre;
    const seatFrom = after.seats[ev.seat] || before.seats[ev.seat];
    const origin = (id) => before.cards[id] ||
      (seatFrom ? { x: seatFrom.x + seatFrom.w / 2 - 30, y: seatFrom.y, w: 60, h: 90 } : tableCentre);
    if (ev.card && !ev.take.length) {
      const target = after.cards[ev.card];
      if (target) {
        const el = root.querySelector(`.eb-card[data-id="${ev.card}"]`);
        if (el) {
          el.style.opacity = "0";
          setTimeout(() => { el.style.opacity = ""; }, delay + duration);
        }
        ghost(root, data, ev.card, origin(ev.card), target, delay, duration, false);
      }
    } else if (ev.take.length) {
      for (const id of [ev.card, ...ev.take].filter(Boolean)) {
        ghost(root, data, id, origin(id), pile, delay, duration, true);
      }
      setTimeout(() => soundHook(root, ev.escoba ? "escoba" : "capture", ev), delay);
    }
    if (ev.escoba) {
      // The celebration ends with the rest, inside the second.
      const start = Math.min(delay + duration * 0.5, MOTION_MS - 300);
      // (A lesson's celebration says the sum in its banner.)
      cheer(root, data.texts.escoba + (ev.sum && !ev.computer && !data.celebrate ? "  " + ev.sum : ""),
        start, Math.min(700, MOTION_MS - start));
    } else if (ev.sum && !ev.computer && !data.celebrate) {
      // The child's own capture says the sum they made ("8 + 7 = 15"), as a wrong one does.
      const start = Math.min(delay + duration * 0.5, MOTION_MS - 300);
      cheer(root, ev.sum, start, Math.min(600, MOTION_MS - start), "eb-cheer-sum");
    }
  });
}

// ------------------------------------------------------------- the component ----------

function bind(root, st) {
  root.addEventListener("click", (e) => {
    const data = st.data;
    if (!data) return;
    if (data.celebrate) {
      if (!e.target.closest("summary")) sendAdvance(st);
      return;
    }
    const card = e.target.closest(".eb-card");
    if (card) {
      if (card.classList.contains("eb-still")) return;
      const id = card.dataset.id;
      if (data.select.tap) {
        // A lesson's "tap the card worth 8": the tap itself is the answer.
        if (st.busy) return;
        st.busy = true;
        card.setAttribute("aria-pressed", "true");
        st.sentAt = performance.now();
        root.dataset.sentAt = String(st.sentAt);
        st.setTrigger("action", { kind: "tap", position: data.position, card: id, take: [] });
        return;
      }
      // The next tap after a refused move begins a new try: its message goes.
      if (data.refused) st.dismissed = data.refused.id;
      if (card.dataset.group === "hand") st.hand = st.hand === id ? null : id;
      else if (st.take.has(id)) st.take.delete(id);
      else st.take.add(id);
      st.lastTap = performance.now();
      update(root, data, st);
      root.dataset.tapped = String(st.lastTap);
      return;
    }
    const action = e.target.closest("button[data-action]");
    if (!action || action.disabled || st.busy) return;
    const kind = action.dataset.action;
    // How long this position's board was on screen: the turn's time (a fact's fluency).
    const thinkMs = Math.round(performance.now() - st.shownAt);
    // issue 26: a ¡renuncio! sends the table cards tapped: the set the claimer chose.
    const payload = kind === "renuncio" ? { kind, position: data.position, take: [...st.take] } :
      { kind, position: data.position, card: st.hand, take: termsOf(data, st).take,
        think_ms: thinkMs };
    st.busy = true;
    update(root, data, st);
    st.sentAt = performance.now();
    root.dataset.sentAt = String(st.sentAt);
    st.setTrigger("action", payload);
    // The server always answers with a new run; should it not, the button comes back.
    clearTimeout(st.busyTimer);
    st.busyTimer = setTimeout(() => { st.busy = false; update(root, st.data, st); }, 6000);
  });
  root.addEventListener("keydown", (e) => {
    const card = e.target.closest(".eb-card");
    if (!card) return;
    const keys = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: "first", End: "last" };
    if (!(e.key in keys)) return;
    const group = [...root.querySelectorAll(`.eb-card[data-group="${card.dataset.group}"]:not(.eb-still)`)];
    const i = group.indexOf(card);
    if (i < 0) return;
    const k = keys[e.key];
    const next = k === "first" ? 0 : k === "last" ? group.length - 1 :
      (i + k + group.length) % group.length;
    e.preventDefault();
    group.forEach((el, j) => { el.tabIndex = j === next ? 0 : -1; });
    group[next].focus();
  });
}

export default function (component) {
  const { data, parentElement, setTriggerValue, setStateValue } = component;
  let root = parentElement.querySelector(".eb-root");
  if (!root) {
    root = document.createElement("div");
    root.className = "eb-root";
    parentElement.appendChild(root);
  }
  if (!data) return;
  // A compact board (the class's vote on a phone): smaller cards, the hand in sight.
  root.classList.toggle("eb-compact", !!data.compact);
  let st = STATE.get(root);
  const mounted = !!st;
  if (!st) {
    st = { position: null, hand: null, take: new Set(), busy: false, seen: -1, fresh: new Set() };
    STATE.set(root, st);
    bind(root, st);
  }
  st.setTrigger = setTriggerValue;
  const before = mounted ? rectsOf(root) : null;
  // Keep the keyboard's place across a redraw: the same card, or the hand after Play.
  const active = parentElement.activeElement || document.activeElement;
  const hadFocus = !!active && root.contains(active);
  const focusedId = hadFocus ? active.dataset?.id || null : null;
  const newPosition = data.position !== st.position;
  if (newPosition) {
    st.position = data.position;
    st.shownAt = performance.now();
    st.hand = data.select.fixed || null;
    st.take = new Set();
  } else if (data.select.fixed) {
    st.hand = data.select.fixed;
  } else if (data.refusals !== st.refusals) {
    // A refused try (a wrong sum) on the same position: the table cards go back, the
    // hand card stays picked, for the next try. The same in the lessons and in Play.
    st.take = new Set();
  }
  st.refusals = data.refusals;
  st.busy = false;
  clearTimeout(st.busyTimer);
  // Only events that arrive while this board is on screen move; a reload shows them still.
  const ids = data.events.map((e) => e.id);
  st.fresh = new Set(mounted && data.game_key === st.gameKey ? ids.filter((id) => id > st.seen) : []);
  st.seen = ids.length ? Math.max(...ids) : -1;
  st.gameKey = data.game_key;
  st.data = data;
  render(root, data, st);
  update(root, data, st);
  // A refusal, said on the board (Play) or above it (a lesson's message pushes the
  // board down): once each, the cards come out from under the action bar.
  const refusal = data.refused ? `r${data.refused.id}` : data.refusals ? `n${data.refusals}` : null;
  if (refusal && st.uncovered !== refusal) {
    st.uncovered = refusal;
    if (mounted) {  // not on a reload: the child did not just try
      uncoverCards(root);
      setTimeout(() => uncoverCards(root), 250);  // after the page's own messages settle
    }
  } else if (newPosition && mounted && data.kind === "lesson" && !data.celebrate) {
    // A lesson's next question whose words went above the screen: on a phone the child
    // is scrolled down to the answers under the board, and after a right answer saw
    // "Well done!" over the same numbers, the new question out of sight (found trying
    // lesson 1's last level as a 7-year-old). The question comes back as far as the
    // numbers she answers with stay in sight (once the page's own message above them,
    // "Well done!", has settled).
    setTimeout(() => bringBackQuestion(root), 300);
  } else if (newPosition && data.kind === "puzzle") {
    // A new puzzle (or the next set to find) whose cards sit under the action bar: on a
    // phone the page opened with the table hidden behind it ("La mesa" and nothing under
    // it; found trying Puzzles as a child). Only when covered: the page does not move.
    uncoverCards(root);
    setTimeout(() => uncoverCards(root), 250);
  }
  if (hadFocus) {
    const again = (focusedId &&
      root.querySelector(`.eb-card[data-id="${CSS.escape(focusedId)}"]:not(.eb-still)`)) ||
      root.querySelector('.eb-card[tabindex="0"]') || root.querySelector(".eb-play");
    if (again) again.focus();
  }
  // Speaker buttons, the mute switch, the goal read aloud, sounds (voice.js, issue 23).
  voiceBoard(root, data, st.fresh, mounted, (on) => setStateValue("sound", on));
  animate(root, data, before, st);
  startCelebration(root, data, st);
  root.dataset.position = data.position;
  root.dataset.renderedAt = String(performance.now());
  performance.mark("escoba-board-rendered");
  // The board drew: said once to each server session (data.session), not once per mount.
  // After a failover the same board, still on the page, meets a new session that never
  // heard it; said once per mount, that session offered the text choosers beside it.
  if (!data.ready && st.readyFor !== data.session) {
    st.readyFor = data.session;
    whenCurrent(parentElement, () => sayAlone(() => setStateValue("ready", data.session || true)));
  }
}

// Run `say` once the board belongs to the page on screen. The word reruns the page, and
// Streamlit 1.67 folds reruns asked close together into one that opens the page of the
// last ask: a board still loading as the child taps a link to another page would take
// the child back to its page. Its page left: stale (the next page's run under way) or no
// longer in the document. Stale: said when the run reaches it again; gone: never (the
// next board says it). A board already on the page when a link was tapped, before the
// next page's run has begun (nothing stale yet), waits until that run begins or
// LINK_WAIT_MS pass; a board drawn after the tap (the new page's) says it at once.
const LINK_WAIT_MS = 2500;  // under the fallback's 4 s out of sight (ui/page_style.py)
const ELEMENT = '[data-testid="stElementContainer"]';
let linkTappedAt = -Infinity;
let onPageAtLinkTap = new WeakSet();
document.addEventListener("click", (event) => {
  if (event.target instanceof Element && event.target.closest("a[href]")) {
    linkTappedAt = performance.now();
    onPageAtLinkTap = new WeakSet(document.querySelectorAll(ELEMENT));
  }
}, true);

function whenCurrent(parentElement, say) {
  const node = parentElement.host || parentElement;
  if (!node.isConnected) return;
  const stale = node.closest('[data-stale="true"]');
  if (stale) {
    const watch = new MutationObserver(() => {
      if (!node.isConnected) { watch.disconnect(); return; }
      if (stale.getAttribute("data-stale") !== "true") { watch.disconnect(); say(); }
    });
    watch.observe(stale, { attributes: true, attributeFilter: ["data-stale"] });
    return;
  }
  const waited = performance.now() - linkTappedAt;
  const element = node.closest(ELEMENT);
  if (element && onPageAtLinkTap.has(element) && waited < LINK_WAIT_MS) {
    setTimeout(() => whenCurrent(parentElement, say), Math.min(200, LINK_WAIT_MS - waited));
    return;
  }
  say();
}

// ------------------------------------------- issue 23: counters, warnings, success ----------
// Small print a child does not need is drawn as icons with numbers (their words stay as the
// accessible name), the rules line behind a disclosure; a sweep warning is one short line
// with the odds as a picture; a finished lesson level is played out before the next one.

// A seat's counters: the words for screen readers, an escoba count as a broom and a number
// (the cards in hand are drawn as backs, the captured pile carries its own number).
function countsOf(seat) {
  const brooms = seat.escobas ? `<span class="eb-escobas" aria-hidden="true">🧹 ${esc(seat.escobas)}</span>` : "";
  return `<span class="eb-sr">${esc(seat.status)}</span>${brooms}`;
}

// A side's points as a big number (the words, "3 points", its accessible name).
function pointsOf(side) {
  if (side.points_no === undefined) return `<span class="eb-points">${esc(side.points)}</span>`;
  return `<span class="eb-points" role="img" aria-label="${esc(side.points)}" title="${esc(side.points)}">${esc(side.points_no)}</span>`;
}

function headerCounts(data, h) {
  if (h.round_no === undefined) return `<span><b>${esc(h.round)}</b> · ${esc(h.stock)}</span>`;
  const back = (data.back || "").replace("<svg ", '<svg aria-hidden="true" ');
  // The icons' words as their name and as a tooltip (a pointer resting on them shows it).
  const words = esc(h.round + " · " + h.stock);
  return `<span class="eb-icons" role="img" aria-label="${words}" title="${words}">` +
    `<span aria-hidden="true">🔁 <b>${esc(h.round_no)}</b></span>` +
    `<span aria-hidden="true"><span class="eb-pileback">${back}</span> <b>${esc(h.stock_no)}</b></span></span>`;
}

function rulesDisclosure(h) {
  if (!h.rules) return `<span class="eb-dim eb-small">${esc(h.summary)}</span>`;
  return `<details class="eb-rules"><summary>ℹ️ ${esc(h.rules)}</summary>
    <span class="eb-small">${esc(h.summary)}</span></details>`;
}

// The odds of a sweep as a picture: three bars, as many filled as the risk (1-3).
function oddsPicture(level, words) {
  const bars = [1, 2, 3].map((k) => `<span class="eb-odd${k <= level ? " eb-odd-on" : ""}"></span>`).join("");
  return `<span class="eb-odds" role="img" aria-label="${esc(words || "")}">${bars}</span>`;
}

function warningHtml(w) {
  const short = `<span aria-hidden="true">⚠️</span> ${esc(w.warn)} ${w.level ? oddsPicture(w.level, w.odds) : ""}`;
  if (!w.long) return short;
  return `<details class="eb-warnmore"><summary>${short}</summary><span class="eb-small">${esc(w.long)}</span></details>`;
}

// The hook for sounds (the "speech" helper's Web Audio): every capture, escoba and star
// is announced as an "escoba-sound" event that leaves the component's shadow root
// (detail: {kind: "capture"|"escoba"|"star", sum}), and given to window.escobaSound(kind,
// detail) when that function exists. Nothing is played here.
function soundHook(root, kind, extra) {
  const detail = { kind, sum: extra && extra.sum ? extra.sum : null,
    stars: extra && extra.stars ? extra.stars : null };
  root.dispatchEvent(new CustomEvent("escoba-sound", { bubbles: true, composed: true, detail }));
  try {
    if (typeof window.escobaSound === "function") window.escobaSound(kind, detail);
  } catch (err) { /* a sound never breaks the board */ }
  (root.__sounds = root.__sounds || []).push(kind);
}

// A finished level, played out: the cards flew to the pile (animate), then "¡Escoba!" with
// a broom over the empty table, the sum the child made and the stars; then the next level
// on a tap (anywhere on the board, or "Next") or by itself after data.celebrate.auto_ms.
function celebrateBox(data) {
  const c = data.celebrate;
  const stars = [1, 2, 3].map((k) => `<span class="eb-star-big${k <= c.stars ? " eb-star-on" : ""}"
    style="animation-delay:${(MOTION_MS + 150 * k) / 1000}s">${k <= c.stars ? "⭐" : "☆"}</span>`).join("");
  return `<div class="eb-celebrate${c.escoba ? " eb-celebrate-escoba" : ""}" role="status" aria-live="polite"
      aria-label="${esc((c.escoba ? c.title + " " : "") + c.text + " " + c.stars_text)}">
    ${c.escoba ? `<div class="eb-celebrate-title" aria-hidden="true">🧹 ${esc(c.title)}</div>` : ""}
    <div class="eb-celebrate-line" aria-hidden="true"><span class="eb-praise">${esc(c.text)}</span>
      <span class="eb-stars-big">${stars}</span></div>
    <button type="button" class="eb-next">${esc(c.next)}</button></div>`;
}

function sendAdvance(st) {
  const data = st.data;
  if (!data || !data.celebrate || st.advanced === data.position) return;
  st.advanced = data.position;
  clearTimeout(st.celebrateTimer);
  st.setTrigger("action", { kind: "advance", position: data.position });
}

function startCelebration(root, data, st) {
  clearTimeout(st.celebrateTimer);
  root.dataset.celebrating = data.celebrate ? "true" : "false";
  if (!data.celebrate) return;
  const c = data.celebrate;
  const moving = !REDUCED() && st.fresh.size > 0;
  const after = moving ? MOTION_MS : 0;
  st.starTimers = (st.starTimers || []).filter((id) => clearTimeout(id) && false);
  for (let k = 1; k <= (c.stars || 0); k += 1) {
    st.starTimers.push(setTimeout(() => soundHook(root, "star", { stars: k }), after + 150 * k));
  }
  st.celebrateTimer = setTimeout(() => advanceWhenSaid(st, performance.now()),
    after + (c.auto_ms || 2000));
}

// The next level comes by itself once the praise has been said: its goal, read aloud
// next, cancels what is being said, and a child who reads slowly heard "Two stars!
// Level pas..." (found trying the lessons as a 7-year-old). At most PRAISE_WAIT_MS more.
const PRAISE_WAIT_MS = 8000;

function advanceWhenSaid(st, since) {
  const synth = window.speechSynthesis;
  if (synth && synth.speaking && performance.now() - since < PRAISE_WAIT_MS) {
    st.celebrateTimer = setTimeout(() => advanceWhenSaid(st, since), 250);
    return;
  }
  sayAlone(() => sendAdvance(st));  // by itself, not a tap: never with one (say_alone.js)
}
