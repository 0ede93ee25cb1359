// agentc studio: the decision map beside the graph and each run's trace, read from agentc
// serve's own /studio/api/ routes (not the Agent Server API: another server answers 404,
// and these panels say so), and the key of a server that asks for one. Loaded before
// studio.js, whose helpers (el, api, $, ui) these functions use when they are called.
// Texts go in with textContent, never innerHTML.
"use strict";

// ---- the key of a server that asks for one (agentc serve --api-key): asked once, kept in
// this tab's sessionStorage, sent in the x-api-key header (never in a URL)
const KEY = "agentc-studio-key";

function keyHeaders(headers) {
  const key = sessionStorage.getItem(KEY);
  return key ? { ...headers, "x-api-key": key } : headers;
}

function askKey() {
  const refused = sessionStorage.getItem(KEY) !== null;
  sessionStorage.removeItem(KEY);
  $("login-note").textContent = refused ? "that key was refused" : "";
  $("login").hidden = false;
  status("this server needs its API key", true);
  $("login-key").focus();
}

function keyForm() {
  $("login").addEventListener("submit", (e) => {
    e.preventDefault();
    const key = $("login-key").value.trim();
    if (!key) return;
    sessionStorage.setItem(KEY, key);
    location.reload(); // the page starts again, with the key
  });
}
document.addEventListener("DOMContentLoaded", keyForm); // after studio.js's helpers exist

async function showDecisions(a) {
  const box = $("decisions");
  let d;
  try { d = await api("GET", `/studio/api/assistants/${a.assistant_id}/decisions`); } catch (err) {
    box.replaceChildren(el("span", { class: "muted" }, `not offered by this server (${err.message})`));
    return;
  }
  const at = (x) => (x ? el("span", { class: "at" }, ` ${x}`) : null);
  const lines = d.summary.map((s) => el("li", { "data-topic": s.topic }, el("span", { class: "topic" }, s.topic), s.text, at(s.at)));
  const changed = d.seats.filter((s) => s.changed);
  const seats = changed.map((s) => {
    const part = (s.parts || [])[0] || {};
    return el("li", { "data-seat": s.id }, el("span", { class: "seat-id" }, s.id), s.question, el("br"),
      el("span", { class: `holder ${s.holder}` }, s.holder), " ", part.answer || "", at(part.at));
  });
  box.replaceChildren(el("ul", { class: "summary" }, ...lines),
    el("details", { class: "seats" }, el("summary", {}, `seats this file changes (${changed.length} of ${d.seats.length})`), el("ul", {}, ...seats)));
}

async function showRuns(open) {
  if (!ui.thread || !ui.tracing) return;
  const runs = await api("GET", `/threads/${ui.thread}/runs?limit=20`);
  $("trace").replaceChildren(...runs.map((r) => runView(r, r.run_id === open)));
}

// the running run's spans, read again while it streams (the server shows a run's spans
// as they start and end): one read at a time, at most every LIVE_MS
const LIVE_MS = 250;

async function liveTrace(runId) {
  if (!ui.tracing || !runId) return;
  const head = el("summary", {}, `run ${runId.slice(0, 8)} · running`);
  const box = el("details", { class: "run live", "data-run": runId, open: true }, head);
  $("trace").prepend(box);
  while (ui.busy && ui.run === runId && box.isConnected) {
    try {
      const t = await api("GET", `/studio/api/runs/${runId}/trace`);
      if (box.isConnected) box.replaceChildren(head, traceTree(t.spans));
    } catch { /* not kept yet: read again */ }
    await new Promise((done) => setTimeout(done, LIVE_MS));
  }
}

function runView(run, open) {
  const when = new Date(run.created_at).toLocaleTimeString();
  const box = el("details", { class: "run", "data-run": run.run_id }, el("summary", {}, `run ${run.run_id.slice(0, 8)} · ${when} · ${run.status}`));
  box.addEventListener("toggle", () => { if (box.open && !box.dataset.loaded) loadTrace(box, run.run_id); });
  if (open) box.open = true;
  return box;
}

async function loadTrace(box, runId) {
  box.dataset.loaded = "1";
  try {
    const t = await api("GET", `/studio/api/runs/${runId}/trace`);
    box.append(traceTree(t.spans));
    if (t.dropped) box.append(el("div", { class: "muted" }, `${t.dropped} more spans not kept`));
  } catch (err) { box.append(el("div", { class: "muted" }, err.message)); }
}

function traceTree(spans) {
  const ids = new Set(spans.map((s) => s.span_id));
  const kids = new Map();
  for (const s of spans) {
    const parent = ids.has(s.parent_id) ? s.parent_id : null;
    if (!kids.has(parent)) kids.set(parent, []);
    kids.get(parent).push(s);
  }
  const view = (s) => {
    const children = kids.get(s.span_id) || [];
    const label = spanLabel(s);
    const cls = `${s.status === "error" ? "error " : ""}${s.operation}`;
    if (!children.length) return el("div", { class: `span leaf ${cls}`, "data-span": s.name }, ...label);
    return el("details", { class: `span ${cls}`, "data-span": s.name, open: true }, el("summary", {}, ...label), ...children.map(view));
  };
  return el("div", { class: "trace-tree" }, ...(kids.get(null) || []).map(view));
}

function spanLabel(s) {
  const t = s.tokens;
  const tokens = t ? [`${t.input || 0} in`, `${t.output || 0} out`, t.cache_read && `${t.cache_read} cached`, t.reasoning && `${t.reasoning} reasoning`].filter(Boolean).join(" · ") : null;
  const source = s.attributes && s.attributes["agentc.source"];
  return [el("span", { class: "span-name", title: source || s.operation }, s.name),
    el("span", { class: "span-time" }, s.duration_ms == null ? "running" : `${s.duration_ms.toFixed(1)} ms`),
    tokens ? el("span", { class: "span-tokens" }, `${tokens} tokens`) : null,
    s.cost_usd != null ? el("span", { class: "span-cost" }, `$${s.cost_usd.toFixed(5)}`) : null,
    s.error ? el("span", { class: "span-cost" }, s.error) : null];
}
