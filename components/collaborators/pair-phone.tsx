"use client";
import { useMutation } from "@tanstack/react-query";
import { pairPhone, unwrap } from "@/lib/client/api";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Section } from "@/components/ui/section";
import { QrLink } from "./qr-link";

/** Settings → Pair my phone (owner): a 10-minute single-use sign-in code for the owner's other device. */
export function PairPhone() {
  const pair = useMutation({ mutationFn: () => unwrap(pairPhone()) });
  return (
    <Section
      title="Pair my phone"
      intro="Scan this with your phone to sign in there as you. The code works once, for 10 minutes."
    >
      <Button onClick={() => pair.mutate()} busy={pair.isPending}>
        Show a pairing code
      </Button>
      {pair.error ? <Alert>{pair.error.message}</Alert> : null}
      {pair.data ? <QrLink url={pair.data.url} label="Pairing link" /> : null}
    </Section>
  );
}
