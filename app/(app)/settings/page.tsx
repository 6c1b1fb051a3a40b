export const metadata = { title: "Settings" };

export default function SettingsPage() {
  return (
    <>
      <h1>Settings</h1>
      <p className="muted">Agent tokens, notifications and the absence timeout will be configured here. This part of the cockpit is not built yet.</p>
    </>
  );
}
