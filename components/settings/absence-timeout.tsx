"use client";
import { useState } from "react";
import { setAbsenceTimeout } from "@/lib/client/api";
import { describeSeconds } from "./describe-seconds";

/** Absence timeout: off by default; when set, a session's unanswered queue is denied after that long. */
export function AbsenceTimeout({ initial }: { initial: number | null }) {
  const [current, setCurrent] = useState(initial);
  const [seconds, setSeconds] = useState(initial ? String(initial) : "600");
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function save(timeoutSeconds: number | null) {
    setBusy(true);
    setError(null);
    setNotice(null);
    const res = await setAbsenceTimeout(timeoutSeconds);
    setBusy(false);
    if (!res.ok) return setError(res.error);
    const body = res.data;
    setCurrent(body.timeoutSeconds);
    setNotice(
      body.timeoutSeconds === null
        ? "Absence timeout turned off"
        : `Absence timeout set to ${describeSeconds(body.timeoutSeconds)}`,
    );
  }

  const value = Number(seconds);
  const valid = Number.isInteger(value) && value >= 10 && value <= 30 * 86_400;
  return (
    <div className="stack">
      <p style={{ margin: 0 }} data-testid="absence-current">
        Currently: <strong>{current === null ? "off" : `${describeSeconds(current)} (${current} seconds)`}</strong>
      </p>
      <p className="muted" style={{ margin: 0 }}>
        When a session&apos;s oldest unanswered request has waited this long with no answer from a person, the whole
        unanswered queue of that session is denied together, with a message telling the model the user may be away, that
        nothing was authorized and not to retry just to get an answer. After that, new requests of that session are
        denied at once until you write to the agent again. Off means requests wait until someone answers or the agent
        gives up.
      </p>
      <form
        className="row"
        style={{ alignItems: "flex-end" }}
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) void save(value);
        }}
      >
        <div className="field" style={{ maxWidth: "14rem" }}>
          <label htmlFor="absence-seconds">Timeout in seconds</label>
          <input
            id="absence-seconds"
            type="number"
            inputMode="numeric"
            min={10}
            max={30 * 86_400}
            step={1}
            value={seconds}
            onChange={(e) => setSeconds(e.target.value)}
          />
        </div>
        <button className="primary" type="submit" disabled={busy || !valid}>
          Save timeout
        </button>
        <button type="button" disabled={busy || current === null} onClick={() => save(null)}>
          Turn off
        </button>
      </form>
      {!valid ? (
        <p className="muted" style={{ margin: 0 }}>
          Between 10 seconds and 30 days.
        </p>
      ) : null}
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
    </div>
  );
}
