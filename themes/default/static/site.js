// gitnomic's progressive enhancements. Every page reads without this
// script; it adds a copy-link button to rule permalinks, sortable tables,
// a filter box over long tables, a search box over a prebuilt index,
// "me" (what waits for the reader's vote) and local times.
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
    // The accessible name starts with the words shown (WCAG 2.5.3).
    button.setAttribute("aria-label", "copy link to this rule");
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
        // Numbers before words, each among their own kind: a name that is
        // a number does not break the names' order.
        const order = typeof x !== typeof y ? (typeof x === "number" ? -1 : 1)
          : x < y ? -1 : x > y ? 1 : 0;
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
  // A page with a search over the whole archive needs no second box
  // for its own rows: the site's search box and that one are enough.
  if (document.querySelector("form.search[data-only]")) return;
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
  return (entry.t + " " + entry.k + " " + (entry.a || "") + " " + (entry.x || "")).toLowerCase().includes(needle);
}

/**
 * A search box over the split index: search/index.json holds the rules
 * (title and text) and players, the open matters' numbers and names the
 * resolved matters' files, one a year, newest first. Those load only as a
 * search needs them, newest year first, until enough is found; "more"
 * loads the rest. Each file is fetched once, however many keys are
 * typed. "#12" or "12" jumps to that matter. The address takes ?q=, and
 * Enter opens the first result. data-only="matters" leaves out rules and
 * players (the archive's filter across every year).
 */
function addSearch(form) {
  const root = form.dataset.root;
  const mattersOnly = form.dataset.only === "matters";
  const input = form.querySelector("input");
  const results = form.querySelector(".results");
  form.hidden = false;
  if (!window.fetch || location.protocol === "file:") {
    // Opened from disk: a browser lets no page read the files beside it.
    input.addEventListener("input", () => {
      const note = document.createElement("li");
      note.textContent = "Search needs the site served: run “gitnomic serve” in the game's folder, or “python3 -m http.server” in the site's, and open the address it prints.";
      results.replaceChildren(note);
    });
    form.addEventListener("submit", (e) => e.preventDefault());
    return;
  }
  let head = null;
  const years = [];
  const exists = new Map();
  let asked = 0;
  const loadHead = () => head || (head = fetchJson(form.dataset.index));
  const loadYear = (h, i) => years[i] || (years[i] = fetchJson(root + h.shards[i]));
  // Matters matching `needle`, newest first: at least `want` of them, or all.
  const findMatters = async (needle, want) => {
    const h = await loadHead();
    const found = [];
    let i = 0;
    for (; i < h.shards.length && found.length < want; i++) {
      for (const e of await loadYear(h, i)) if (matches(e, needle)) found.push(e);
    }
    return { found, complete: i >= h.shards.length };
  };
  // The matter numbered `n`: open, or resolved in this game or imported.
  const byNumber = async (h, n) => {
    if ((h.pending || []).includes(n)) {
      return [{ t: "#" + n + " (pending)", u: "pending/index.html#_pending-" + n, k: "pending matter" }];
    }
    const hits = [];
    for (const source of h.sources || [""]) {
      const u = "matters/" + (source ? source + "/" : "") + n + ".html";
      if (!exists.has(u)) {
        exists.set(u, fetch(root + u, { method: "HEAD" }).then((r) => r.ok, () => false));
      }
      if (await exists.get(u)) hits.push({ t: "#" + n + (source ? " (" + source + ")" : ""), u, k: "matter" });
    }
    return hits;
  };
  const broken = () => { results.replaceChildren(); };
  // Where a rule's or a term's text matches (not its title): the words
  // around the match, the match marked.
  const snippet = (e, needle) => {
    const text = e.x || "";
    const at = needle ? text.indexOf(needle) : -1;
    if (at < 0 || e.t.toLowerCase().includes(needle)) return null;
    const start = Math.max(0, at - 40);
    const end = Math.min(text.length, at + needle.length + 40);
    const span = document.createElement("span");
    span.className = "snippet";
    const mark = document.createElement("mark");
    mark.textContent = text.slice(at, at + needle.length);
    span.append((start > 0 ? "…" : "") + text.slice(start, at), mark,
      text.slice(at + needle.length, end) + (end < text.length ? "…" : ""));
    return span;
  };
  const entry = (e, needle) => {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = root + e.u;
    link.textContent = e.t;
    const kind = document.createElement("small");
    kind.textContent = " " + e.k + (e.a ? " · " + e.a : "");
    item.append(link, kind);
    const words = snippet(e, needle);
    if (words) item.append(words);
    return item;
  };
  const show = (first, found, complete, needle) => {
    const hits = first.concat(found);
    results.replaceChildren(...hits.slice(0, complete ? hits.length : SHOWN).map((e) => entry(e, needle)));
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
  const search = () => {
    const needle = input.value.trim().toLowerCase();
    const ask = ++asked;
    if (needle.length < 2 && !/^\d$/.test(needle)) { results.replaceChildren(); return Promise.resolve(); }
    return loadHead().then(async (h) => {
      const number = /^#?(\d+)$/.exec(needle);
      const jump = number ? await byNumber(h, Number(number[1])) : [];
      // The matter asked for by number, then rules and players, then
      // matters newest first.
      const first = jump.concat(mattersOnly ? [] : h.entries.filter((e) => matches(e, needle)));
      const { found, complete } = await findMatters(needle, SHOWN + 1 - first.length);
      if (ask === asked) show(first, found, complete && first.length + found.length <= SHOWN, needle);
    }).catch(broken);
  };
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    search().then(() => {
      const first = results.querySelector("a");
      if (first) location.href = first.href;
    });
  });
  input.addEventListener("focus", () => { loadHead().catch(broken); }, { once: true });
  input.addEventListener("input", search);
  const q = new URLSearchParams(location.search).get("q");
  if (q && !mattersOnly) {
    input.value = q;
    search();
  }
}

/**
 * "Me": a player names themselves once (on their own page; kept in this
 * browser), and every page then marks what waits for them: the pending
 * matters they have not voted on (listed in the status strip, their cards
 * marked with what their vote would do now, as the build computed it) and
 * their row in the tracker.
 */
const ME_KEY = "gitnomic-me";

function me() {
  try { return localStorage.getItem(ME_KEY); } catch (e) { return null; }
}

function setMe(name) {
  try {
    if (name) localStorage.setItem(ME_KEY, name); else localStorage.removeItem(ME_KEY);
  } catch (e) { /* storage off: nothing kept */ }
  location.reload();
}

function addMe() {
  const name = me();
  // Their own page: the button to pick (or drop) the name.
  for (const slot of document.querySelectorAll("[data-me-pick]")) {
    const who = slot.dataset.mePick;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "me-pick";
    button.textContent = name === who ? "This is not me" : "This is me";
    button.addEventListener("click", () => setMe(name === who ? null : who));
    slot.append(button);
    slot.hidden = false;
  }
  if (!name) return;
  const strip = document.querySelector(".strip[data-unvoted]");
  if (strip) {
    let open = [];
    try { open = JSON.parse(strip.dataset.unvoted); } catch (e) { open = []; }
    const mine = open.filter(([, names]) => names.includes(name)).map(([n]) => n);
    const span = document.createElement("span");
    span.className = "me";
    // The name isolated: one that reorders text reorders only itself.
    const who = document.createElement("bdi");
    who.textContent = name;
    span.append("You: ", who, ". ");
    if (mine.length) {
      span.append("Not voted yet: ");
      mine.forEach((n, i) => {
        const link = document.createElement("a");
        link.href = strip.dataset.root + "pending/index.html#_pending-" + n;
        link.textContent = "#" + n;
        if (i) span.append(", ");
        span.append(link);
      });
    } else {
      span.append("Nothing waits for your vote.");
    }
    strip.append(" ", span);
  }
  for (const card of document.querySelectorAll("article.pending[data-unvoted]")) {
    let names = [];
    try { names = JSON.parse(card.dataset.unvoted); } catch (e) { names = []; }
    if (!names.includes(name)) continue;
    card.classList.add("unvoted-by-me");
    const note = document.createElement("p");
    note.className = "mine";
    const strong = document.createElement("strong");
    strong.textContent = "You have not voted on this.";
    note.append(strong);
    for (const row of card.querySelectorAll("tr[data-player]")) {
      if (row.dataset.player !== name) continue;
      note.append(" If you vote FOR now: " + row.cells[1].textContent + ". If AGAINST: " + row.cells[2].textContent + ".");
    }
    card.querySelector("h2, h3, h4").after(note);
  }
  for (const row of document.querySelectorAll("tr[data-player]")) {
    if (row.dataset.player === name && !row.closest("table.if-votes")) row.classList.add("me-row");
  }
}

/**
 * The ruleset's contents: open beside the rules on a wide screen (on a
 * phone they stay folded above them), with the rule being read marked.
 */
function addContents() {
  const box = document.querySelector("details.toc-box");
  if (!box) return;
  if (window.matchMedia && matchMedia("(min-width: 64rem)").matches) box.open = true;
  if (!window.IntersectionObserver) return;
  const links = new Map();
  for (const a of box.querySelectorAll("a[href^='#']")) links.set(a.getAttribute("href").slice(1), a);
  let current = null;
  const observer = new IntersectionObserver((entries) => {
    for (const e of entries) {
      if (!e.isIntersecting) continue;
      const link = links.get(e.target.id);
      if (!link || link === current) continue;
      if (current) current.removeAttribute("aria-current");
      link.setAttribute("aria-current", "location");
      current = link;
    }
  }, { rootMargin: "0px 0px -70% 0px" });
  for (const section of document.querySelectorAll(".rulebook .rule[id]")) observer.observe(section);
}

/** Every <time datetime> in UTC gets the reader's local time after it. */
function addLocalTimes() {
  for (const time of document.querySelectorAll("time[datetime]")) {
    const at = new Date(time.getAttribute("datetime"));
    if (Number.isNaN(at.getTime()) || time.dataset.local) continue;
    time.dataset.local = "1";
    const local = document.createElement("span");
    local.className = "local";
    local.textContent = " (" + at.toLocaleString([], { dateStyle: "medium", timeStyle: "short" }) + " your time)";
    time.after(local);
  }
}

/** "11 h 40 min" for a span of milliseconds. */
function span(ms) {
  const minutes = Math.round(ms / 60000);
  const days = Math.floor(minutes / 1440), hours = Math.floor((minutes % 1440) / 60), mins = minutes % 60;
  const parts = [];
  if (days) parts.push(days + " d");
  if (hours) parts.push(hours + " h");
  if (mins || !parts.length) parts.push(mins + " min");
  return parts.join(" ");
}

/** How far from now a moment is still counted in days, hours and minutes:
 * a week, longer than the voting periods players wait through. Further
 * out ("in 1192 d", a demo dated years ahead) a count says less than the
 * date, so the date is given instead. */
const COUNTDOWN_MS = 7 * 24 * 60 * 60 * 1000;

/** What a card says of its next moment `at` when read at `now` (both in
 * milliseconds): a countdown within a week, else the date in the
 * reader's time; once passed, that the resolver decides, or, a week
 * after, that the page was built before it. */
function countdownText(at, now) {
  const local = () => new Date(at).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
  if (at > now) {
    return at - now <= COUNTDOWN_MS
      ? " That is in " + span(at - now) + "."
      : " That is on " + local() + ", your time.";
  }
  return now - at <= COUNTDOWN_MS
    ? " That moment has passed: the resolver's next run decides."
    : " That moment passed on " + local() + ", your time: this page was built before it.";
}

/** A moment a card names (`data-at`, in UTC as the page states it) counted
 * down in the reader's browser, once a minute; the page's own sentence
 * stays true without it. */
function addCountdowns() {
  const spans = document.querySelectorAll(".countdown[data-at]");
  if (!spans.length) return;
  const tick = () => {
    const now = Date.now();
    for (const el of spans) {
      const at = new Date(el.dataset.at).getTime();
      if (Number.isNaN(at)) continue;
      el.textContent = countdownText(at, now);
    }
  };
  tick();
  setInterval(tick, 60000);
}

/** The strip's live part from status.js (one small file every page loads,
 * so a vote rewrites it and not every page): how many matters are pending,
 * the next moment, and who has not voted (for "me"). */
function applyStatus() {
  const st = window.gitnomicStatus;
  const strip = document.querySelector(".strip");
  if (!st || !strip) return;
  const link = strip.querySelector(".strip-pending a");
  if (link && st.asked) {
    const count = document.createElement("strong");
    count.textContent = String(st.pending);
    link.replaceChildren(count, " pending");
  } else if (link) {
    link.after(": no forge asked");
  }
  const next = strip.querySelector(".strip-next");
  if (next && st.next) next.textContent = " Next: " + st.next;
  if (Array.isArray(st.unvoted) && st.unvoted.length) strip.dataset.unvoted = JSON.stringify(st.unvoted);
}

document.addEventListener("DOMContentLoaded", () => {
  applyStatus();
  addCopyLinks();
  for (const table of document.querySelectorAll("table.sortable")) {
    makeSortable(table);
    addFilter(table);
  }
  for (const form of document.querySelectorAll("form.search")) addSearch(form);
  addMe();
  addContents();
  addLocalTimes();
  addCountdowns();
});
