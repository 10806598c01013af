// selfplay serve: live tournaments list and keyboard navigation of the
// game viewer. No libraries; text from the server is set with textContent
// only, never as HTML.
"use strict";

function pollTournaments(el) {
  var ms = Math.max(2000, parseInt(el.dataset.pollMs, 10) || 2000);
  function fmt(iso) {
    var d = new Date(iso);
    if (isNaN(d) || d.getUTCFullYear() < 2) return "-";
    return d.toISOString().replace("T", " ").replace(/\.\d+Z$/, "Z");
  }
  function eta(sec) {
    var s = Math.round(sec), h = Math.floor(s / 3600), m = Math.floor(s % 3600 / 60);
    if (h > 0) return h + "h " + String(m).padStart(2, "0") + "m";
    if (m > 0) return m + "m " + String(s % 60).padStart(2, "0") + "s";
    return s + "s";
  }
  function update(v) {
    document.getElementById("updated-at").textContent = fmt(v.updated);
    var list = document.getElementById("tournaments");
    if (list.querySelectorAll("section.tournament").length !== v.tournaments.length) {
      location.reload(); // tournaments added or deleted: draw the page anew
      return;
    }
    v.tournaments.forEach(function (t) {
      var sec = list.querySelector('section[data-id="' + t.id + '"]');
      // A new tournament, or another one under this id (the database was
      // replaced): draw the page anew.
      if (!sec || sec.querySelector("h2 a").textContent !== t.name) { location.reload(); return; }
      function set(name, text) { var f = sec.querySelector('[data-field="' + name + '"]'); if (f) f.textContent = text; }
      set("status", t.status);
      set("games", t.games_stored + "/" + t.games_scheduled);
      set("eta", t.eta_seconds != null ? ", ETA " + eta(t.eta_seconds) : "");
      set("sprt", t.stopped_by_sprt ? ", stopped by the SPRT" : "");
      set("stalled", t.stalled ? ", nothing stored for a while: the run has probably stopped" : "");
      set("last-write", fmt(t.last_write));
      var ul = sec.querySelector('[data-field="pairings"]');
      ul.replaceChildren();
      t.pairings.forEach(function (p) {
        var li = document.createElement("li");
        li.textContent = p.verdict;
        if (p.sprt_verdict) {
          li.appendChild(document.createElement("br"));
          var s = document.createElement("span");
          s.className = "sprt";
          s.textContent = p.sprt_verdict;
          li.appendChild(s);
        }
        ul.appendChild(li);
      });
    });
  }
  function tick() {
    fetch(el.dataset.poll, {cache: "no-store"})
      .then(function (r) {
        // The database is gone: the server's page says so (and reloads
        // itself until it is back).
        if (r.status === 503) { location.reload(); throw new Error(r.status); }
        if (!r.ok) throw new Error(r.status);
        return r.json();
      })
      .then(update)
      .catch(function (e) { el.dataset.error = String(e); })
      .finally(function () { setTimeout(tick, ms); });
  }
  setTimeout(tick, ms);
}

function gameViewer(el) {
  var id = el.dataset.id, ply = parseInt(el.dataset.ply, 10), last = parseInt(el.dataset.last, 10);
  var evalSVG = document.querySelector("#eval svg");
  function show(n) {
    if (n < 0 || n > last || n === ply) return;
    ply = n;
    fetch("/games/" + id + "/board.svg?ply=" + n)
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (svg) {
        if (n !== ply) return; // a later key won
        var doc = new DOMParser().parseFromString(svg, "image/svg+xml");
        document.getElementById("board").replaceChildren(document.importNode(doc.documentElement, true));
      });
    document.getElementById("ply").textContent = n;
    document.getElementById("prev").href = "?ply=" + Math.max(n - 1, 0);
    document.getElementById("next").href = "?ply=" + Math.min(n + 1, last);
    document.querySelectorAll(".moves tr.current").forEach(function (tr) { tr.classList.remove("current"); });
    var row = document.querySelector('.moves tr[data-ply="' + n + '"]');
    if (row) { row.classList.add("current"); row.scrollIntoView({block: "nearest"}); }
    if (evalSVG) {
      var x = parseFloat(evalSVG.dataset.x0) + parseFloat(evalSVG.dataset.dx) * n, m = document.getElementById("evalmark");
      m.setAttribute("x1", x); m.setAttribute("x2", x);
    }
    history.replaceState(null, "", "?ply=" + n);
  }
  document.addEventListener("keydown", function (e) {
    if (e.target && (e.target.tagName === "TEXTAREA" || e.target.tagName === "INPUT" || e.target.tagName === "SELECT")) return;
    var to = {ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: last}[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to);
  });
  document.getElementById("prev").addEventListener("click", function (e) { e.preventDefault(); show(ply - 1); });
  document.getElementById("next").addEventListener("click", function (e) { e.preventDefault(); show(ply + 1); });
  var copy = document.getElementById("copy-pgn");
  if (copy) copy.addEventListener("click", function () {
    var pgn = document.getElementById("pgn");
    if (navigator.clipboard) navigator.clipboard.writeText(pgn.value);
    else { pgn.select(); document.execCommand("copy"); }
  });
}

document.addEventListener("DOMContentLoaded", function () {
  var poll = document.querySelector("[data-poll]");
  if (poll) pollTournaments(poll);
  var game = document.getElementById("game");
  if (game) gameViewer(game);
});
