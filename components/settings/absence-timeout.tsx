"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { setAbsenceTimeout, unwrap } from "@/lib/client/api";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { describeSeconds } from "./describe-seconds";
import styles from "./settings.module.css";

/** Absence timeout: off by default; when set, a session's unanswered queue is denied after that long. */
export function AbsenceTimeout({ initial }: { initial: number | null }) {
  const [current, setCurrent] = useState(initial);
  const [seconds, setSeconds] = useState(initial ? String(initial) : "600");
  const save = useMutation({
    mutationFn: (timeoutSeconds: number | null) => unwrap(setAbsenceTimeout(timeoutSeconds)),
    onSuccess: (body) => setCurrent(body.timeoutSeconds),
  });
  const value = Number(seconds);
  const valid = Number.isInteger(value) && value >= 10 && value <= 30 * 86_400;
  return (
    <div className="stack">
      <p className={styles.flush} data-testid="absence-current">
        Currently: <strong>{current === null ? "off" : `${describeSeconds(current)} (${current} seconds)`}</strong>
      </p>
      <p className={`muted ${styles.flush}`}>
        When a session&apos;s oldest unanswered request has waited this long with no answer from a person, the whole
        unanswered queue of that session is denied together, with a message telling the model the user may be away, that
        nothing was authorized and not to retry just to get an answer. After that, new requests of that session are
        denied at once until you write to the agent again. Off means requests wait until someone answers or the agent
        gives up.
      </p>
      <form
        className={`row ${styles.bottom}`}
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) save.mutate(value);
        }}
      >
        <div className={`field ${styles.narrowField}`}>
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
        <Button variant="primary" type="submit" disabled={!valid} busy={save.isPending && save.variables !== null}>
          Save timeout
        </Button>
        <Button
          disabled={current === null}
          busy={save.isPending && save.variables === null}
          onClick={() => save.mutate(null)}
        >
          Turn off
        </Button>
      </form>
      {!valid ? <p className={`muted ${styles.flush}`}>Between 10 seconds and 30 days.</p> : null}
      {save.error ? <Alert>{save.error.message}</Alert> : null}
      {save.isSuccess ? (
        <Notice>
          {save.data.timeoutSeconds === null
            ? "Absence timeout turned off"
            : `Absence timeout set to ${describeSeconds(save.data.timeoutSeconds)}`}
        </Notice>
      ) : null}
    </div>
  );
}
