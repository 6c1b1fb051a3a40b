import { Suspense } from "react";
import { LoginForm } from "@/components/shell/login-form";
import { PasskeySignIn } from "@/components/collaborators/passkey-sign-in";
import { Section } from "@/components/ui/section";

export const metadata = { title: "Sign in" };

export default function LoginPage() {
  return (
    <main className="content narrow-page" id="main">
      <h1>Permissions Cockpit</h1>
      <Suspense>
        <LoginForm />
        <PasskeySignIn />
      </Suspense>
      <Section title="How to sign in">
        <p>
          The cockpit has no passwords. When it starts it prints a one-time login link in the terminal. To get a new one
          while it runs, open a terminal in the cockpit&apos;s folder and run:
        </p>
        <pre className="card command-box">npx cockpit login-link</pre>
        <p className="muted">
          A link works once and expires after 15 minutes. If you came from a notification, the link brings you back to
          that card.
        </p>
      </Section>
    </main>
  );
}
