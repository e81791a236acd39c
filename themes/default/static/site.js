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

function addSearch() {
  const form = document.querySelector("form.search");
  // A page opened as a file cannot fetch the index: no box that cannot work.
  if (!form || !window.fetch || location.protocol === "file:") return;
  form.hidden = false;
  const input = form.querySelector("input");
  const results = form.querySelector(".results");
  let index = null;
  const load = () => {
    if (index) return Promise.resolve(index);
    return fetch(form.dataset.index)
      .then((r) => { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then((data) => (index = data));
  };
  const broken = () => { form.hidden = true; };
  const entry = (e) => {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = form.dataset.root + e.u;
    link.textContent = e.t;
    const kind = document.createElement("small");
    kind.textContent = " " + e.k + (e.a ? " · " + e.a : "");
    item.append(link, kind);
    return item;
  };
  const show = (found, all) => {
    results.replaceChildren(...found.slice(0, all ? found.length : SHOWN).map(entry));
    if (!all && found.length > SHOWN) {
      const item = document.createElement("li");
      const more = document.createElement("button");
      more.type = "button";
      more.className = "more";
      more.textContent = `more (${found.length - SHOWN})`;
      more.addEventListener("click", () => show(found, true));
      item.append(more);
      results.append(item);
    }
  };
  form.addEventListener("submit", (e) => e.preventDefault());
  input.addEventListener("focus", () => { load().catch(broken); }, { once: true });
  input.addEventListener("input", () => {
    const needle = input.value.trim().toLowerCase();
    load().then((entries) => {
      if (needle.length < 2) { results.replaceChildren(); return; }
      const hits = entries.filter((e) => (e.t + " " + e.k + " " + (e.a || "")).toLowerCase().includes(needle));
      // Rules and players first, then matters newest first.
      const matters = hits.filter((e) => e.a).reverse();
      show(hits.filter((e) => !e.a).concat(matters), false);
    }).catch(broken);
  });
}

document.addEventListener("DOMContentLoaded", () => {
  addCopyLinks();
  for (const table of document.querySelectorAll("table.sortable")) {
    makeSortable(table);
    addFilter(table);
  }
  addSearch();
});
