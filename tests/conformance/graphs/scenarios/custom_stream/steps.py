"""Custom stream events: a node reports progress through get_stream_writer()."""

import dualside as ds


def work(state):
    write = ds.writer()
    for i in range(1, 4):
        write({"progress": i, "of": 3})
    write("almost done")
    return {"result": f"worked on {state['task']}"}


def report(state):
    ds.writer()({"report": state["result"]})
    return {"log": ["reported"]}
