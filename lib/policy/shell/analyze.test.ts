import { beforeAll, describe, expect, it } from "vitest";
import { decide } from "../decide";
import { loadShellParser } from "../../agents/shared/shell-parser";
import { ctx, sh, useShell } from "@/test/support/policy";
import type { ShellParser } from "./analyze";

let shell: ShellParser;
beforeAll(async () => {
  shell = await loadShellParser();
  useShell(shell);
});
const analyzeShell = (command: string) => shell.analyze(command);

describe("root/home delete in every disguise", () => {
  const disguised = [
    "rm -rf /",
    "rm -rf ~",
    "rm -rf $HOME",
    "rm -rf ${HOME}",
    'rm -rf "$HOME"',
    "rm -rf '/'",
    'rm -rf "/"',
    "rm -rf /*",
    "rm -rf ~/",
    "rm -rf ~/*",
    "rm -rf $HOME/",
    "rm -rf $HOME/*",
    'rm -rf "${HOME}"/*',
    'rm -rf "$HOME/"',
    "rm -rf /;",
    "rm -rf ~;echo ok",
    "rm -rf /&&echo ok",
    "rm -fr /",
    "rm -R /",
    "rm --recursive --force /",
    "rm -rf -- /",
    'bash -c "rm -rf /; echo ok"',
    "sh -c 'rm -rf ~'",
    'zsh -c "cd /tmp && rm -rf $HOME"',
    "echo $(rm -rf /;)",
    "echo `rm -rf ~`",
    "FOO=1 rm -rf /",
    "timeout 30 rm -rf /",
    "nice -n 10 rm -rf ~",
    "env X=1 rm -rf $HOME",
    "sudo rm -rf /",
    "nohup rm -rf / &",
    "time rm -rf ~",
    "xargs rm -rf /",
    "stdbuf -oL rm -rf /",
    "command rm -rf /",
    "builtin rm -rf /",
    "ls && rm -rf /",
    "true || rm -rf ~",
    "cat x | rm -rf /",
    "find / -delete",
    "find ~ -name x -delete",
    'bash -c "bash -c \\"rm -rf /\\""',
    "eval 'rm -rf /'",
    'echo "unterminated; rm -rf /',
    "/bin/rm -rf /",
    "rm -rf /.",
    "rm -rf //",
  ];
  it.each(disguised)("%s", (command) => {
    const a = analyzeShell(command);
    expect(a.rootHomeDelete).toBe(true);
    const d = decide(sh(command), ctx({ mode: "yolo" }));
    expect(d.decision).toBe("ask");
    expect(d.step).toBe("root-home-delete");
    expect(decide(sh(command), ctx({ mode: "dont-ask" })).decision).toBe("deny");
  });

  const notHome = [
    "rm -rf $HOMEDIR",
    "rm -rf ${HOMEDIR}",
    "rm -rf ~/project/build",
    "rm -rf /tmp/x",
    "rm -rf ./dist",
    'echo "rm -rf /"',
    "rm -rf $HOME/project",
  ];
  it.each(notHome)("%s is not a root/home delete", (command) => {
    expect(analyzeShell(command).rootHomeDelete).toBe(false);
  });

  it("a literal home path resolved from the context is a home delete", () => {
    expect(decide(sh("rm -rf /home/u"), ctx({ mode: "yolo" })).step).toBe("root-home-delete");
    expect(decide(sh("rm -rf /home"), ctx({ mode: "yolo" })).step).toBe("root-home-delete");
    expect(decide(sh("rm -rf /home/u/w/dist"), ctx({ mode: "yolo" })).step).toBe("yolo");
    expect(decide(sh("rm -rf .."), ctx({ mode: "yolo", cwd: "/home/u/w", workspaceRoot: "/home/u/w" })).step).toBe(
      "root-home-delete",
    );
  });
});

describe("classification", () => {
  const readOnly: [string, boolean][] = [
    ["ls -la", true],
    ["cat a | head -5", true],
    ["grep -r foo src", true],
    ["rg foo", true],
    ["echo hi", true],
    ["pwd", true],
    ["wc -l a", true],
    ["find . -name '*.ts'", true],
    ["find . -delete", false],
    ["find . -exec rm {} ;", false],
    ["find . -fprint out", false],
    ["sed -n 1p a", true],
    ["sed -i s/a/b/ a", false],
    ["sed 's/a/b/w out' a", false],
    ["git status", true],
    ["git diff HEAD", true],
    ["git log --oneline", true],
    ["git show HEAD", true],
    ["git -C sub status", true],
    ["git -c core.pager=evil log", false],
    ["git push", false],
    ["git commit -m x", false],
    ["git branch", true],
    ["git branch -D x", false],
    ["git diff --output=x", false],
    ["cat a > b", false],
    ["echo x >> log", false],
    ["ls 2>&1", true],
    ["ls > /dev/null", true],
    ["PATH=/tmp ls", false],
    ["timeout 5 ls", false],
    ["npm test", false],
    ["sort -o out a", false],
    ["env", true],
    ["echo $(rm x)", false],
    ["echo $(ls)", true],
    ["if true; then ls; fi", false],
    ["ls; ", true],
    ["cat README.md | head -5 || echo none", true],
  ];
  it.each(readOnly)("%s read-only → %s", (c, want) => expect(analyzeShell(c).readOnly).toBe(want));

  const secrets: [string, string[]][] = [
    ["cat .env", [".env"]],
    ["head id_rsa", ["id_rsa"]],
    ["cat .env.local", [".env.local"]],
    ["cat certs/a.pem", ["certs/a.pem"]],
    ["less server.key", ["server.key"]],
    ["cat ~/.aws/credentials", ["~/.aws/credentials"]],
    ["cat ~/.ssh/id_ed25519", ["~/.ssh/id_ed25519"]],
    ["cat README.md", []],
    ["grep -r password .env", [".env"]],
  ];
  it.each(secrets)("%s secret args", (c, want) => expect(analyzeShell(c).secretArgs).toEqual(want));

  const safe: [string, boolean][] = [
    ["mkdir -p a/b", true],
    ["touch a", true],
    ["cp a b", true],
    ["mv a b", true],
    ["rm a.o", true],
    ["rmdir empty", true],
    ["sed -i s/a/b/ f", true],
    ["rm -r build", false],
    ["rm -rf build", false],
    ["mkdir $DIR", false],
    ["touch a > b", false],
    ["mkdir a && npm i", false],
    ["chmod +x a", false],
  ];
  it.each(safe)("%s safe file command → %s", (c, want) => expect(analyzeShell(c).safeFileCommand).toBe(want));

  it.each([
    ["rm -r x", true],
    ["rm -R x", true],
    ["rm -rf x", true],
    ["rm --recursive x", true],
    ["find . -delete", true],
    ["rm x", false],
  ] as const)("%s recursive delete → %s", (c, want) => expect(analyzeShell(c).recursiveDelete).toBe(want));

  it("splits every operator", () => {
    const a = analyzeShell("a && b || c; d | e |& f & g\nh");
    expect(a.parts.filter((p) => p.origin === "top").map((p) => p.argv[0])).toEqual([
      "a",
      "b",
      "c",
      "d",
      "e",
      "f",
      "g",
      "h",
    ]);
  });

  it("marks dangerous commands", () => {
    for (const c of [
      "sudo ls",
      "dd if=/dev/zero of=x",
      "git push --force",
      "git reset --hard",
      "chmod -R 777 .",
      "rm -rf x",
    ])
      expect(analyzeShell(c).dangerous, c).toBe(true);
    expect(analyzeShell("git status").dangerous).toBe(false);
  });

  it("caches analyses by command text", () => {
    expect(analyzeShell("ls -la")).toBe(analyzeShell("ls -la"));
  });
});

describe("redirections", () => {
  it.each([
    ["cat a | head > out", ["out"]],
    ["cat <<EOF > f\nhi\nEOF", ["f"]],
    ["cat > f <<EOF\nhi\nEOF", ["f"]],
    ["ls &> log", ["log"]],
    ["ls 2>&1", []],
    ["ls > /dev/null", []],
    ["{ ls; } > out", ["out"]],
  ])("%j writes %j", (c, want) => {
    const a = analyzeShell(c);
    expect(a.writes).toEqual(want);
    if (want.length) expect(a.readOnly).toBe(false);
  });

  it("a redirect into a sensitive file asks even in accept-edits", () => {
    expect(decide(sh("cat a | head > .env"), ctx({ mode: "accept-edits" })).step).toBe("sensitive-write");
  });
});
