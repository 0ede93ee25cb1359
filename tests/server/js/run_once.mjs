// One run through the JS SDK: create a thread, stream a run, print the final messages.
// Usage: node run_once.mjs URL ASSISTANT "question"
// Prints one JSON line: {"thread_id", "events": [kinds seen], "messages": [{type, content}]}.
import { Client } from "@langchain/langgraph-sdk";

const [url, assistant, question] = process.argv.slice(2);
if (!url || !assistant || !question) {
  console.error("usage: node run_once.mjs URL ASSISTANT QUESTION");
  process.exit(2);
}

const client = new Client({ apiUrl: url });
const thread = await client.threads.create();
const events = [];
let last = null;
for await (const part of client.runs.stream(thread.thread_id, assistant, {
  input: { messages: [{ type: "human", content: question }] },
  streamMode: ["values", "messages-tuple"],
})) {
  events.push(part.event);
  if (part.event === "values") last = part.data;
  if (part.event === "error") {
    console.error(JSON.stringify(part.data));
    process.exit(1);
  }
}
const state = await client.threads.getState(thread.thread_id);
console.log(
  JSON.stringify({
    thread_id: thread.thread_id,
    events: [...new Set(events)],
    messages: (last?.messages ?? []).map((m) => ({ type: m.type, content: m.content })),
    state_messages: (state.values?.messages ?? []).length,
  }),
);
