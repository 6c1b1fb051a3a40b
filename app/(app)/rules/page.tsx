export const metadata = { title: "Rules" };

export default function RulesPage() {
  return (
    <>
      <h1>Rules</h1>
      <p className="muted">Session, workspace and global rules and grants will be listed here. This part of the cockpit is not built yet.</p>
    </>
  );
}
