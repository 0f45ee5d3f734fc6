// Streamlit's own English words in the page's language (issue 33; ui/streamlit_words.py).
// Runs in the page itself: one MutationObserver for the whole document, kept across
// reruns, with the rules of the latest language. Only the exact strings (and rules) the
// catalog lists are touched; the app's own texts (labels, Markdown, buttons, tables,
// icons' ligature names) are never looked at.
const ATTRS = ["aria-label", "title", "placeholder"];
const SKIP = [
  "[data-testid=stWidgetLabel]", "[data-testid=stMarkdown]", "[data-testid=stCaptionContainer]",
  "[data-testid=stHeading]", "[data-testid=stSidebarNav]", "[data-testid=stButton]",
  "[data-testid=stAlert]", "[data-testid=stIconMaterial]", "[data-testid=stDataFrame] table",
  "[data-testid=stHtml]", "[data-testid=stTable]", "[data-testid=stCode]", "[role=tab]",
  "[data-testid=stRadio]", "[data-testid=stButtonGroup]", "[data-testid=stCheckbox]",
  "[data-testid=stPageLink]", "[data-testid=stMetric]", "style", "script", "noscript", "textarea",
].join(",");
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
  "September", "October", "November", "December"];
const DAYS = "Sunday|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday";
const M = MONTHS.join("|");
const FULL_DATE = new RegExp(`\\b(?:${DAYS}), (${M}) (\\d{1,2}), (\\d{4})\\b`);
const MONTH_YEAR = new RegExp(`\\b(${M}) (\\d{4})\\b`);
const MONTH = new RegExp(`^(${M})$`);

const W = (window.__escobaWords ||= {
  lang: "en", key: "", exact: new Map(), rules: [], shown: new WeakMap(), observer: null });

function intl(options, y, m, d) {
  return new Intl.DateTimeFormat(W.lang, options).format(new Date(y, m, d));
}

// The date picker's English dates (react-aria follows the browser, not the page).
function dates(s) {
  return s
    .replace(FULL_DATE, (_, mon, d, y) => intl(
      { weekday: "long", year: "numeric", month: "long", day: "numeric" },
      +y, MONTHS.indexOf(mon), +d))
    .replace(MONTH_YEAR, (_, mon, y) => intl({ year: "numeric", month: "long" },
      +y, MONTHS.indexOf(mon), 1))
    .replace(MONTH, (mon) => intl({ month: "long" }, 2000, MONTHS.indexOf(mon), 1));
}

function tr(english) {
  const key = english.trim();
  if (!key || W.lang === "en") return english;
  let out = W.exact.get(key);
  if (out === undefined) {
    out = dates(key);
    for (const [re, to] of W.rules) {
      if (re.test(out)) { out = out.replace(re, to); break; }
    }
  }
  return out === key ? english : english.replace(key, out);
}

// What a node showed in English before we changed it: after a language change the
// English is translated again; after React wrote English back, that is the source.
function source(holder, name, value) {
  const seen = W.shown.get(holder);
  const was = seen && seen[name];
  return was && was.shown === value ? was.english : value;
}

function remember(holder, name, english, shown) {
  const seen = W.shown.get(holder) || {};
  seen[name] = { english, shown };
  W.shown.set(holder, seen);
}

function doText(node) {
  const parent = node.parentElement;
  if (!parent || parent.closest(SKIP)) return;
  const value = node.data;
  const english = source(node, "text", value);
  const out = tr(english);
  if (out !== value) { node.data = out; remember(node, "text", english, out); }
}

function doAttr(el, name) {
  const value = el.getAttribute(name);
  if (value === null) return;
  const english = source(el, name, value);
  const out = tr(english);
  if (out !== value) { el.setAttribute(name, out); remember(el, name, english, out); }
}

// The calendar's row of weekday initials (a Sunday-first week, "S M T W T F S"): the
// same days' initials in the page's language, column by column.
function weekdays(root) {
  for (const row of root.querySelectorAll("[role=dialog] thead tr")) {
    const cells = [...row.children];
    if (cells.map((c) => c.textContent).join("") !== "SMTWTFS") continue;
    const narrow = new Intl.DateTimeFormat(W.lang, { weekday: "narrow" });
    cells.forEach((cell, i) => { cell.textContent = narrow.format(new Date(2000, 0, 2 + i)); });
  }
}

function scan(root) {
  if (root.nodeType === Node.TEXT_NODE) { doText(root); return; }
  if (root.nodeType !== Node.ELEMENT_NODE) return;
  if (W.lang !== "en") weekdays(root);
  for (const name of ATTRS) doAttr(root, name);
  for (const el of root.querySelectorAll("[aria-label],[title],[placeholder]")) {
    for (const name of ATTRS) doAttr(el, name);
  }
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) doText(walker.currentNode);
}

function observe() {
  W.observer = new MutationObserver((changes) => {
    if (W.lang === "en") return;  // Streamlit's own language: nothing to swap
    for (const change of changes) {
      if (change.type === "attributes") doAttr(change.target, change.attributeName);
      else if (change.type === "characterData") doText(change.target);
      else change.addedNodes.forEach(scan);
    }
  });
  W.observer.observe(document.body, { subtree: true, childList: true, characterData: true,
    attributes: true, attributeFilter: ATTRS });
}

export default function (component) {
  const { data } = component;
  if (!data) return;
  const key = JSON.stringify(data);
  if (key === W.key) return;
  W.key = key;
  W.lang = data.lang;
  W.exact = new Map(Object.entries(data.exact || {}));
  W.rules = (data.rules || []).map(([re, to]) => [new RegExp(re, "s"), to]);
  // A screen reader reads the page in its language (Streamlit's page says "en").
  document.documentElement.lang = data.lang;
  if (!W.observer) observe();
  scan(document.body);
}
