// The menu closes after a page is picked, when it lies over the page (issue 29; see
// ui/menu_closer.py). Runs in the page itself: one click listener for the document,
// installed once and kept across reruns.
export default function () {
  if (window.__escobaMenuCloser) return;
  window.__escobaMenuCloser = true;
  document.addEventListener("click", (event) => {
    const link = event.target instanceof Element
      && event.target.closest('[data-testid="stSidebarNav"] a');
    if (!link) return;
    const menu = document.querySelector('[data-testid="stSidebar"]');
    const page = document.querySelector('[data-testid="stMain"]');
    if (!menu || !page) return;
    // Beside the page (a wide screen): it stays, as the child left it.
    if (page.getBoundingClientRect().left >= menu.getBoundingClientRect().right - 1) return;
    // After Streamlit's own handling of the tap (it closes the menu itself on a phone's
    // browser): closed only if it is still open.
    setTimeout(() => {
      if (menu.getAttribute("data-collapsed") === "true") return;
      const close = document.querySelector('[data-testid="stSidebarCollapseButton"] button');
      if (close) close.click();
    }, 60);
  });
}
