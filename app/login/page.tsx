import { Suspense } from "react";
import { LoginForm } from "@/components/shell/login-form";
import { PasskeySignIn } from "@/components/collaborators/passkey-sign-in";

export const metadata = { title: "Sign in" };

export default function LoginPage() {
  return (
    <main className="content" style={{ margin: "0 auto", maxWidth: 560 }}>
      <h1>Permissions Cockpit</h1>
      <Suspense>
        <LoginForm />
      </Suspense>
      <PasskeySignIn />
      <div className="card">
        <h2 style={{ marginTop: 0 }}>How to sign in</h2>
        <p>
          The cockpit has no passwords. When it starts it prints a one-time login link in the terminal. To get a new one
          while it runs, open a terminal in the cockpit&apos;s folder and run:
        </p>
        <pre className="card" style={{ background: "var(--surface-2)" }}>
          npx cockpit login-link
        </pre>
        <p className="muted">A link works once and expires after 15 minutes.</p>
      </div>
    </main>
  );
}
