"use client";
import { ApiError } from "@/lib/client/api";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

/**
 * A refused change, where it was made. When the server asked for a fresh passkey confirmation and the prompt did not
 * complete, the button right here asks again and retries the same change.
 */
export function StepUpRetry({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const stepUp = error instanceof ApiError && error.details?.stepUp;
  return (
    <Alert
      tone={stepUp ? "warning" : "error"}
      title={stepUp ? "Confirm with your passkey." : undefined}
      testId={stepUp ? "step-up" : undefined}
      action={stepUp ? <Button onClick={onRetry}>Confirm with passkey</Button> : undefined}
    >
      {error.message}
    </Alert>
  );
}
