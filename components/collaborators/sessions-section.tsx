"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { endDevice, unwrap, type DeviceRow } from "@/lib/client/api";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Section } from "@/components/ui/section";
import { Time } from "@/components/ui/time";
import { LoginLinkList, type LoginLinkMintView } from "@/components/shell/login-link-notice";
import { devicesQuery, settingsKeys } from "./queries";
import styles from "./settings.module.css";

/** Settings → Your sessions: every device signed in as you, each can be ended; the owner also sees CLI login links. */
export function SessionsSection({
  initial,
  loginLinks,
}: {
  initial: DeviceRow[];
  /** The owner's CLI-minted login links of the last day (null for others). */
  loginLinks: LoginLinkMintView[] | null;
}) {
  const client = useQueryClient();
  const devices = useQuery({ ...devicesQuery(), initialData: initial });
  const end = useMutation({
    mutationFn: (d: DeviceRow) => unwrap(endDevice(d.id)),
    onSuccess: (_r, d) => {
      if (d.current) window.location.replace("/login?signedOut=1");
    },
    onSettled: () => client.invalidateQueries({ queryKey: settingsKeys.devices }),
  });
  return (
    <Section title="Your sessions" testId="sessions" id="sessions">
      {end.error ? <Alert>{end.error.message}</Alert> : null}
      <ul className={styles.list} aria-label="Sessions">
        {devices.data.map((d) => (
          <li key={d.id} className={`${styles.item} ${styles.split}`}>
            <span>
              <strong>{d.device}</strong>
              {d.current ? " (this device)" : ""}{" "}
              <span className="muted">
                signed in by {d.signIn} · last seen {d.lastSeenAt ? <Time iso={d.lastSeenAt} /> : "never"}
              </span>
            </span>
            <Button busy={end.isPending && end.variables?.id === d.id} onClick={() => end.mutate(d)}>
              {d.current ? "End this session" : "End"}
            </Button>
          </li>
        ))}
      </ul>
      {loginLinks ? (
        <>
          <h3 className={styles.subheading}>Login links minted with the CLI</h3>
          <LoginLinkList mints={loginLinks} />
        </>
      ) : null}
    </Section>
  );
}
