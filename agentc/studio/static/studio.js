// agentc studio: one page over the Agent Server API (assistants, threads, runs/stream).
// It talks to nothing else, so it works against any server that speaks that API:
// `?api=URL` points it at another one (that server must allow this page's origin).
// The decision map and the traces come from agentc serve's own /studio/api/ routes; a
// server without them still gets the rest of the page.
// Every text from the server goes in with textContent or createTextNode, never innerHTML.
"use strict";

const params = new URLSearchParams(location.search);
const API = (params.get("api") || location.pathname.replace(/\/studio(\/.*)?$/, "")).replace(/\/$/, "");
const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
const ui = { assistant: null, thread: null, nodes: new Map(), rendered: [], history: [], busy: false };

// ---- small helpers -------------------------------------------------------------------

function el(tag, attrs, ...children) {
  const node = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.setAttribute("class", v);
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(typeof c === "string" ? document.createTextNode(c) : c);
  return node;
}

function json(value) { return JSON.stringify(value, null, 2); }

function status(text, isError) {
  $("status").textContent = text;
  $("status").classList.toggle("error", Boolean(isError));
}

async function api(method, path, body) {
  const init = { method, headers: keyHeaders({}) };
  if (body !== undefined) { init.headers["content-type"] = "application/json"; init.body = JSON.stringify(body); }
  const resp = await fetch(API + path, init);
  const text = await resp.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { detail: text }; }
  if (!resp.ok) throw Object.assign(new Error((data && data.detail) || `${method} ${path} answered ${resp.status}`), { status: resp.status });
  return data;
}

// Server-sent events read from a fetch body (EventSource cannot POST).
async function* sse(resp) {
  const reader = resp.body.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf = (buf + decoder.decode(value, { stream: true })).replace(/\r\n?/g, "\n");
    let cut;
    while ((cut = buf.indexOf("\n\n")) >= 0) {
      const block = buf.slice(0, cut);
      buf = buf.slice(cut + 2);
      const ev = parseBlock(block);
      if (ev) yield ev;
    }
  }
}

function parseBlock(block) {
  let event = "message";
  const data = [];
  for (const line of block.split("\n")) {
    if (!line || line.startsWith(":")) continue;
    const i = line.indexOf(":");
    const field = i < 0 ? line : line.slice(0, i);
    const value = i < 0 ? "" : line.slice(i + 1).replace(/^ /, "");
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
  }
  if (!data.length) return null;
  const raw = data.join("\n");
  try { return { event, data: JSON.parse(raw) }; } catch { return { event, data: raw }; }
}

// ---- the graph: topological layers, top to bottom ------------------------------------

function layers(graph) {
  const out = new Map(graph.nodes.map((n) => [n.id, []]));
  for (const e of graph.edges) if (out.has(e.source) && out.has(e.target)) out.get(e.source).push(e.target);
  const back = new Set(); // edges closing a cycle, found by a depth-first walk
  const state = new Map();
  const visit = (id) => {
    state.set(id, 1);
    for (const t of out.get(id)) {
      if (state.get(t) === 1) back.add(id + "\u0000" + t);
      else if (!state.has(t)) visit(t);
    }
    state.set(id, 2);
  };
  for (const n of graph.nodes) if (n.id === "__start__") visit(n.id);
  for (const n of graph.nodes) if (!state.has(n.id)) visit(n.id);
  const layer = new Map(graph.nodes.map((n) => [n.id, 0]));
  for (let changed = true, rounds = 0; changed && rounds < graph.nodes.length; rounds++) {
    changed = false; // longest path over the forward edges
    for (const e of graph.edges) {
      if (back.has(e.source + "\u0000" + e.target) || !layer.has(e.target)) continue;
      if (layer.get(e.target) < layer.get(e.source) + 1) { layer.set(e.target, layer.get(e.source) + 1); changed = true; }
    }
  }
  if (layer.has("__end__")) layer.set("__end__", Math.max(...layer.values(), 1));
  return layer;
}

function drawGraph(graph) {
  const layer = layers(graph);
  const rows = [];
  for (const n of graph.nodes) (rows[layer.get(n.id)] ||= []).push(n);
  const label = (n) => (n.data && n.data.name) || n.id;
  const width = (n) => Math.max(70, label(n).length * 7.2 + 24);
  const rowWidth = (row) => row.reduce((s, n) => s + width(n) + 30, -30);
  const W = Math.max(260, ...rows.filter(Boolean).map(rowWidth)) + 140;
  const pos = new Map();
  rows.forEach((row, i) => {
    let x = (W - 100 - rowWidth(row)) / 2;
    for (const n of row) { pos.set(n.id, { x, y: 20 + i * 80, w: width(n), h: 32 }); x += width(n) + 30; }
  });
  const svg = el("svg:svg", { viewBox: `0 0 ${W} ${rows.length * 80 + 10}`, role: "img" });
  svg.append(el("svg:defs", {}, el("svg:marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto" },
    el("svg:path", { d: "M0,0 L10,5 L0,10 z", fill: "#8a94a6" }))));
  for (const e of graph.edges) {
    const a = pos.get(e.source), b = pos.get(e.target);
    if (!a || !b) continue;
    let d, lx, ly;
    if (b.y > a.y) {
      const x1 = a.x + a.w / 2, y1 = a.y + a.h, x2 = b.x + b.w / 2, y2 = b.y;
      d = `M${x1},${y1} C${x1},${y1 + 30} ${x2},${y2 - 30} ${x2},${y2}`; lx = x1 + (x2 - x1) * 0.7; ly = y1 + (y2 - y1) * 0.7;
    } else { // an edge back up (a loop): around the right side
      const left = a.x + a.w / 2 < W / 2 - 50; // go round the side the source is on
      const x1 = left ? a.x : a.x + a.w, x2 = left ? b.x : b.x + b.w, y1 = a.y + a.h / 2, y2 = b.y + b.h / 2;
      const bend = left ? Math.min(x1, x2) - 50 : Math.max(x1, x2) + 50;
      d = `M${x1},${y1} C${bend},${y1} ${bend},${y2} ${x2},${y2}`; lx = bend + (left ? 12 : -12); ly = (y1 + y2) / 2;
    }
    svg.append(el("svg:path", { d, class: e.conditional ? "edge conditional" : "edge", "marker-end": "url(#arrow)" }));
    if (typeof e.data === "string") svg.append(el("svg:text", { x: lx, y: ly, class: "edge-label" }, e.data));
  }
  ui.nodes = new Map();
  for (const n of graph.nodes) {
    const p = pos.get(n.id);
    const terminal = n.id === "__start__" || n.id === "__end__";
    const g = el("svg:g", { class: terminal ? "node terminal" : "node", "data-node": n.id },
      el("svg:rect", { x: p.x, y: p.y, width: p.w, height: p.h }),
      el("svg:text", { x: p.x + p.w / 2, y: p.y + p.h / 2 }, label(n)));
    svg.append(g);
    ui.nodes.set(n.id, g);
  }
  $("graph").replaceChildren(svg);
}

function lightNode(name, ran) {
  for (const g of ui.nodes.values()) g.classList.remove("active");
  const g = ui.nodes.get(name);
  if (!g) return;
  g.classList.add("active");
  if (ran) g.classList.add("ran");
}

function clearNodes() { for (const g of ui.nodes.values()) g.classList.remove("active", "ran"); }

// ---- chat ----------------------------------------------------------------------------

function text(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p === "string" ? p : p.text || "")).join("");
  return content == null ? "" : json(content);
}

function messageView(m) {
  const kind = m.type || m.role || "message";
  const box = el("div", { class: `msg ${kind}` }, el("span", { class: "role" }, m.type === "tool" ? `tool ${m.name || ""}` : kind), text(m.content));
  for (const c of m.tool_calls || []) box.append(el("div", { class: "call" }, `→ ${c.name}(${JSON.stringify(c.args)})`));
  return box;
}

// Only what changed is redrawn, so a long thread stays cheap while a run streams.
function showMessages(messages) {
  const box = $("messages");
  const keys = (messages || []).map((m) => JSON.stringify(m));
  let same = 0;
  while (same < keys.length && same < ui.rendered.length && keys[same] === ui.rendered[same]) same++;
  while (box.children.length > same) box.lastChild.remove();
  const frag = document.createDocumentFragment();
  for (let i = same; i < keys.length; i++) frag.append(messageView(messages[i]));
  box.append(frag);
  ui.rendered = keys;
  box.scrollTop = box.scrollHeight;
}

function liveChunk(chunk) {
  const id = `live-${chunk.id || "reply"}`;
  let box = document.getElementById(id);
  if (!box) { box = el("div", { id, class: "msg ai" }, el("span", { class: "role" }, "ai (streaming)"), el("span", {})); $("live").append(box); }
  box.lastChild.textContent += text(chunk.content);
}

// ---- runs ----------------------------------------------------------------------------

async function startRun(body) {
  if (!ui.thread) await newThread();
  ui.busy = true;
  ui.failed = null;
  $("review").hidden = true;
  clearNodes();
  status("running…");
  const payload = { assistant_id: ui.assistant.assistant_id, stream_mode: ["values", "updates", "messages-tuple", "events"], ...body };
  try {
    const resp = await fetch(`${API}/threads/${ui.thread}/runs/stream`, { method: "POST", headers: keyHeaders({ "content-type": "application/json" }), body: JSON.stringify(payload) });
    if (!resp.ok) { const d = await resp.json().catch(() => ({})); throw new Error(d.detail || `the run was refused (${resp.status})`); }
    let failed = null;
    for await (const ev of sse(resp)) failed = onEvent(ev) || failed;
    status(failed || "run finished", Boolean(failed));
    ui.failed = failed;
  } catch (err) {
    status(String(err.message || err), true);
  } finally {
    ui.busy = false;
    for (const g of ui.nodes.values()) g.classList.remove("active");
    $("live").replaceChildren();
    await refreshThread();
  }
}

function onEvent(ev) {
  const mode = ev.event.split("|")[0];
  const d = ev.data;
  if (mode === "updates" && d && typeof d === "object") {
    for (const node of Object.keys(d)) if (node !== "__interrupt__") lightNode(node, true);
  } else if (mode === "events" && d && d.metadata && String(d.event).endsWith("_start")) {
    if (d.metadata.langgraph_node) lightNode(d.metadata.langgraph_node, false);
  } else if (mode === "messages" && Array.isArray(d)) {
    liveChunk(d[0] || {});
    if (d[1] && d[1].langgraph_node) lightNode(d[1].langgraph_node, false);
  } else if (mode === "values" && d && typeof d === "object") {
    $("live").replaceChildren();
    if (Array.isArray(d.messages)) showMessages(d.messages);
  } else if (mode === "metadata" && d && d.run_id) {
    ui.run = d.run_id; liveTrace(d.run_id); // the trace panel shows its spans as it runs
  } else if (mode === "error") {
    return d && typeof d === "object" ? [d.error, d.message].filter(Boolean).join(": ") : String(d || "the run failed");
  }
  return null;
}

// ---- human review --------------------------------------------------------------------

function pendingInterrupts(state) {
  if (Array.isArray(state.interrupts) && state.interrupts.length) return state.interrupts;
  return (state.tasks || []).flatMap((t) => t.interrupts || []);
}

function showReview(interrupts) {
  const box = $("review");
  if (!interrupts.length) { box.hidden = true; box.replaceChildren(); return; }
  const forms = interrupts.map(reviewForm);
  const send = el("button", { type: "button", id: "send-review", onclick: () => {
    try {
      const answers = forms.map((f) => f.answer());
      const resume = answers.length === 1 ? answers[0] : Object.fromEntries(interrupts.map((it, i) => [it.id, answers[i]]));
      startRun({ input: null, command: { resume } });
    } catch (err) { status(String(err.message || err), true); }
  } }, "send review");
  box.replaceChildren(el("strong", {}, "The run is waiting for your review"), ...forms.map((f) => f.node), send);
  box.hidden = false;
}

function reviewForm(interrupt, index) {
  const v = interrupt.value || {};
  if (Array.isArray(v.action_requests)) { // batched: one decision per tool call
    const allowed = new Map((v.review_configs || []).map((c) => [c.action_name, c.allowed_decisions]));
    const reqs = v.action_requests.map((r, i) => requestForm(r, allowed.get(r.name), `${index}-${i}`));
    return { node: el("div", {}, ...reqs.map((r) => r.node)), answer: () => ({ decisions: reqs.map((r) => r.decision()) }) };
  }
  if (v.type === "tool_approval") { // per call: the decision itself is the answer
    const r = requestForm(v, null, `${index}-0`);
    return { node: r.node, answer: () => r.decision() };
  }
  const area = el("textarea", { "aria-label": "answer (JSON, or plain text)" }, "");
  return { node: el("div", { class: "request" }, el("pre", {}, json(v)), area), answer: () => {
    try { return JSON.parse(area.value); } catch { return area.value; }
  } };
}

function requestForm(req, allowed, key) {
  const kinds = allowed || ["approve", "edit", "reject", "respond"];
  const args = el("textarea", { class: "edit-args", "aria-label": "edited arguments (JSON)", hidden: true }, json(req.args || {}));
  const note = el("input", { type: "text", class: "note", placeholder: "message for the model", hidden: true });
  const choices = el("div", { class: "choices" });
  const pick = () => choices.querySelector("input:checked").value;
  const update = () => { args.hidden = pick() !== "edit"; note.hidden = !["reject", "respond"].includes(pick()); };
  kinds.forEach((k, i) => choices.append(el("label", {}, el("input", { type: "radio", name: `decision-${key}`, value: k, checked: i === 0, onchange: update }), ` ${k}`)));
  const node = el("div", { class: "request" }, el("div", {}, el("strong", {}, req.name || "call"), " ", el("span", { class: "muted" }, req.tool_call_id || "")),
    el("pre", {}, json(req.args || {})), req.description ? el("div", { class: "muted" }, req.description) : null, choices, args, note);
  const decision = () => {
    const type = pick();
    const out = { type };
    if (req.tool_call_id) out.tool_call_id = req.tool_call_id; // matched by id, not by position (D10)
    if (type === "edit") out.edited_action = { name: req.name, args: JSON.parse(args.value) };
    if (type === "reject" && note.value) out.message = note.value;
    if (type === "respond") out.message = note.value;
    return out;
  };
  return { node, decision };
}

// ---- threads, history, a step's state and diff ---------------------------------------

async function newThread() {
  const t = await api("POST", "/threads", { metadata: { graph_id: ui.assistant.graph_id } });
  await openThread(t.thread_id);
  await listThreads();
}

async function listThreads() {
  const found = await api("POST", "/threads/search", { limit: 50 });
  const mine = found.filter((t) => !t.metadata || !t.metadata.graph_id || t.metadata.graph_id === ui.assistant.graph_id);
  $("threads").replaceChildren(...mine.map((t) => el("li", { class: t.thread_id === ui.thread ? "current" : "", "data-thread": t.thread_id, onclick: () => openThread(t.thread_id) },
    `${t.thread_id.slice(0, 8)} · ${t.status}`)));
}

async function openThread(id) {
  ui.thread = id;
  ui.rendered = [];
  $("messages").replaceChildren();
  $("thread-id").textContent = id;
  const q = new URLSearchParams(location.search);
  q.set("thread", id);
  q.set("assistant", ui.assistant.graph_id);
  history.replaceState(null, "", `?${q}`);
  for (const li of $("threads").children) li.classList.toggle("current", li.dataset.thread === id);
  await refreshThread();
}

async function refreshThread() {
  if (!ui.thread) return;
  const state = await api("GET", `/threads/${ui.thread}/state`);
  showMessages((state.values && state.values.messages) || []);
  const waiting = pendingInterrupts(state);
  showReview(waiting);
  if (waiting.length && !ui.failed) status("waiting for your review");
  const stamp = state.checkpoint && state.checkpoint.checkpoint_id;
  await showHistory(stamp);
  if (!ui.busy) listThreads().catch(() => {});
  if (!ui.busy) showRuns(ui.run).catch((err) => { $("trace-note").textContent = err.message; });
}

function changedKeys(step, parent) {
  const before = (parent && parent.values) || {}, after = step.values || {};
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
}

async function showHistory(head) {
  const steps = await api("POST", `/threads/${ui.thread}/history`, { limit: 200 });
  ui.history = steps;
  const byId = new Map(steps.map((s) => [s.checkpoint.checkpoint_id, s]));
  const onHead = new Set(); // the checkpoints of the branch the thread is on now
  for (let s = byId.get(head); s; s = byId.get(s.parent_checkpoint && s.parent_checkpoint.checkpoint_id)) onHead.add(s.checkpoint.checkpoint_id);
  $("history").replaceChildren(...steps.map((s) => {
    const id = s.checkpoint.checkpoint_id;
    const parent = byId.get(s.parent_checkpoint && s.parent_checkpoint.checkpoint_id);
    const meta = s.metadata || {};
    const ran = { input: "input", update: "state edited", fork: "forked here" }[meta.source] || (parent ? (parent.next || []).join(", ") || "—" : "start");
    const keys = changedKeys(s, parent);
    const tags = [meta.source === "fork" && ["forked", "fork"], !onHead.has(id) && ["other", "other branch"], (s.interrupts || []).length && ["paused", "paused for review"]];
    const info = el("div", {}, `step ${meta.step} · ${ran}`, ...tags.filter(Boolean).map(([c, t]) => el("span", { class: `tag ${c}` }, t)), el("br"),
      el("span", { class: "keys" }, keys.length ? `changed: ${keys.join(", ")}` : "no change"));
    const fork = el("button", { type: "button", class: "fork", title: "run again from this checkpoint, on a new branch", onclick: (e) => { e.stopPropagation(); startRun({ input: null, checkpoint_id: id }); } }, "fork from here");
    const edit = el("button", { type: "button", class: "edit", onclick: (e) => { e.stopPropagation(); showStep(s, parent, true); } }, "edit state");
    const li = el("li", { class: onHead.has(id) ? "" : "other", "data-checkpoint": id, onclick: () => showStep(s, parent) }, info, el("span", { class: "actions" }, fork, edit));
    return li;
  }));
}

function showStep(step, parent, editing) {
  for (const li of $("history").children) li.classList.toggle("current", li.dataset.checkpoint === step.checkpoint.checkpoint_id);
  const box = $("step");
  box.classList.remove("muted");
  const parts = [el("div", { class: "muted" }, `checkpoint ${step.checkpoint.checkpoint_id} · next: ${(step.next || []).join(", ") || "end"}`)];
  for (const k of changedKeys(step, parent)) parts.push(el("div", { class: "diff-key" }, k), ...diffView((parent && parent.values || {})[k], (step.values || {})[k]));
  if (editing) {
    const area = el("textarea", { id: "state-editor", "aria-label": "the state as JSON" }, json(step.values || {}));
    const save = el("button", { type: "button", id: "save-state", onclick: () => saveAndContinue(step, area.value) }, "save and continue");
    parts.push(el("div", { class: "diff-key" }, "edit the state, then continue from it"), area, save);
  } else {
    parts.push(el("div", { class: "diff-key" }, "state"), el("pre", {}, json(step.values || {})));
  }
  box.replaceChildren(...parts);
}

function diffView(before, after) {
  if (Array.isArray(before) && Array.isArray(after) && after.length > before.length && before.every((v, i) => JSON.stringify(v) === JSON.stringify(after[i]))) {
    return [el("div", { class: "muted" }, `+ ${after.length - before.length} added`), el("pre", {}, json(after.slice(before.length)))];
  }
  return [el("div", { class: "muted" }, "before"), el("pre", {}, before === undefined ? "(unset)" : json(before)),
    el("div", { class: "muted" }, "after"), el("pre", {}, after === undefined ? "(unset)" : json(after))];
}

async function saveAndContinue(step, raw) {
  let edited;
  try { edited = JSON.parse(raw); } catch (err) { status(`the state is not valid JSON: ${err.message}`, true); return; }
  const old = step.values || {};
  const values = Object.fromEntries(Object.entries(edited).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(old[k])));
  try {
    const saved = await api("POST", `/threads/${ui.thread}/state`, { values, checkpoint_id: step.checkpoint.checkpoint_id });
    const from = saved && saved.checkpoint && saved.checkpoint.checkpoint_id;
    await startRun(from ? { input: null, checkpoint_id: from } : { input: null });
  } catch (err) { status(String(err.message || err), true); }
}

// ---- start ---------------------------------------------------------------------------

async function chooseAssistant(a) {
  ui.assistant = a;
  ui.thread = null;
  $("trace").replaceChildren();
  drawGraph(await api("GET", `/assistants/${a.assistant_id}/graph`));
  showDecisions(a).catch((err) => status(String(err.message || err), true));
  await listThreads();
}

async function main() {
  const found = await api("POST", "/assistants/search", { limit: 100 });
  await api("GET", "/studio/api/tracing").then((t) => { ui.tracing = t.available; $("trace-note").textContent = t.available ? "" : t.note; },
    () => { ui.tracing = false; $("trace-note").textContent = "not offered by this server"; });
  if (!found.length) { status("this server serves no agents", true); return; }
  const select = $("assistant");
  select.replaceChildren(...found.map((a) => el("option", { value: a.assistant_id }, a.graph_id)));
  const wanted = found.find((a) => a.graph_id === params.get("assistant") || a.assistant_id === params.get("assistant")) || found[0];
  select.value = wanted.assistant_id;
  select.addEventListener("change", () => chooseAssistant(found.find((a) => a.assistant_id === select.value)).catch((e) => status(e.message, true)));
  $("new-thread").addEventListener("click", () => newThread().catch((e) => status(e.message, true)));
  $("composer").addEventListener("submit", (e) => {
    e.preventDefault();
    const content = $("message").value.trim();
    if (!content || ui.busy) return;
    $("message").value = "";
    startRun({ input: { messages: [{ role: "user", content }] } });
  });
  await chooseAssistant(wanted);
  if (params.get("thread")) await openThread(params.get("thread"));
  status("ready");
}

main().catch((err) => (err.status === 401 ? askKey() : status(String(err.message || err), true)));
