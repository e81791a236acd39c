// gitnomic's progressive enhancements. Every page reads without this
// script; it adds a copy-link button to rule permalinks, sortable tables,
// a filter box over long tables and a search box over a prebuilt index.
"use strict";

function absolute(href) {
  return new URL(href, document.baseURI).href;
}

function addCopyLinks() {
  if (!navigator.clipboard) return;
  for (const link of document.querySelectorAll("a.permalink")) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "copy-link";
    button.textContent = "copy link";
    button.setAttribute("aria-label", "Copy the permanent link to this rule");
    button.addEventListener("click", () => {
      navigator.clipboard.writeText(absolute(link.getAttribute("href"))).then(
        () => { button.textContent = "copied"; },
        () => { button.textContent = "copy failed"; });
    });
    link.after(button);
  }
}

function cellKey(row, index) {
  const cell = row.cells[index];
  if (!cell) return "";
  const raw = cell.dataset.sort !== undefined ? cell.dataset.sort : cell.textContent.trim();
  const number = Number(raw);
  return raw !== "" && !Number.isNaN(number) ? number : raw.toLowerCase();
}

function makeSortable(table) {
  const headers = table.tHead ? table.tHead.rows[0].cells : [];
  Array.from(headers).forEach((th, index) => {
    th.tabIndex = 0;
    th.setAttribute("aria-sort", "none");
    const sort = () => {
      const up = th.getAttribute("aria-sort") !== "ascending";
      for (const other of headers) other.setAttribute("aria-sort", "none");
      th.setAttribute("aria-sort", up ? "ascending" : "descending");
      const body = table.tBodies[0];
      const rows = Array.from(body.rows);
      rows.sort((a, b) => {
        const x = cellKey(a, index), y = cellKey(b, index);
        const order = x < y ? -1 : x > y ? 1 : 0;
        return up ? order : -order;
      });
      body.append(...rows);
    };
    th.addEventListener("click", sort);
    th.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sort(); } });
  });
}

function addFilter(table) {
  const body = table.tBodies[0];
  if (!body || body.rows.length < 20) return;
  const label = document.createElement("label");
  label.className = "filter";
  label.textContent = "Filter the rows on this page ";
  const input = document.createElement("input");
  input.type = "search";
  label.append(input);
  table.parentElement.before(label);
  input.addEventListener("input", () => {
    const needle = input.value.trim().toLowerCase();
    for (const row of body.rows) {
      row.hidden = needle !== "" && !row.textContent.toLowerCase().includes(needle);
    }
  });
}

/** How many results show before "more". */
const SHOWN = 12;

function fetchJson(url) {
  return fetch(url).then((r) => { if (!r.ok) throw new Error(r.status); return r.json(); });
}

function matches(entry, needle) {
  return (entry.t + " " + entry.k + " " + (entry.a || "")).toLowerCase().includes(needle);
}

/**
 * A search box over the split index: search/index.json holds the rules
 * and players and names the matters' files, one a year, newest first.
 * Those load only as a search needs them, newest year first, until enough
 * is found; "more" loads the rest. data-only="matters" leaves out rules
 * and players (the archive's filter across every year).
 */
function addSearch(form) {
  // A page opened as a file cannot fetch the index: no box that cannot work.
  if (!window.fetch || location.protocol === "file:") return;
  form.hidden = false;
  const root = form.dataset.root;
  const mattersOnly = form.dataset.only === "matters";
  const input = form.querySelector("input");
  const results = form.querySelector(".results");
  let head = null;
  const years = [];
  let asked = 0;
  const loadHead = () => head ? Promise.resolve(head) : fetchJson(form.dataset.index).then((d) => (head = d));
  // Matters matching `needle`, newest first: at least `want` of them, or all.
  const findMatters = async (needle, want) => {
    const h = await loadHead();
    const found = [];
    let i = 0;
    for (; i < h.shards.length && found.length < want; i++) {
      if (!years[i]) years[i] = await fetchJson(root + h.shards[i]);
      for (const e of years[i]) if (matches(e, needle)) found.push(e);
    }
    return { found, complete: i >= h.shards.length };
  };
  const broken = () => { form.hidden = true; };
  const entry = (e) => {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = root + e.u;
    link.textContent = e.t;
    const kind = document.createElement("small");
    kind.textContent = " " + e.k + (e.a ? " · " + e.a : "");
    item.append(link, kind);
    return item;
  };
  const show = (first, found, complete, needle) => {
    const hits = first.concat(found);
    results.replaceChildren(...hits.slice(0, complete ? hits.length : SHOWN).map(entry));
    if (hits.length === 0) {
      const none = document.createElement("li");
      none.textContent = "Nothing matches.";
      results.append(none);
    }
    if (!complete && hits.length > SHOWN) {
      const item = document.createElement("li");
      const more = document.createElement("button");
      more.type = "button";
      more.className = "more";
      more.textContent = "more";
      more.addEventListener("click", () => {
        findMatters(needle, Infinity).then((all) => show(first, all.found, true, needle)).catch(broken);
      });
      item.append(more);
      results.append(item);
    }
  };
  form.addEventListener("submit", (e) => e.preventDefault());
  input.addEventListener("focus", () => { loadHead().catch(broken); }, { once: true });
  input.addEventListener("input", () => {
    const needle = input.value.trim().toLowerCase();
    const ask = ++asked;
    if (needle.length < 2) { results.replaceChildren(); return; }
    loadHead().then(async (h) => {
      // Rules and players first, then matters newest first.
      const first = mattersOnly ? [] : h.entries.filter((e) => matches(e, needle));
      const { found, complete } = await findMatters(needle, SHOWN + 1 - first.length);
      if (ask === asked) show(first, found, complete && first.length + found.length <= SHOWN, needle);
    }).catch(broken);
  });
}

document.addEventListener("DOMContentLoaded", () => {
  addCopyLinks();
  for (const table of document.querySelectorAll("table.sortable")) {
    makeSortable(table);
    addFilter(table);
  }
  for (const form of document.querySelectorAll("form.search")) addSearch(form);
});
