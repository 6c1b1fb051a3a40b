/**
 * POSIX path helpers with Rust's std::path semantics where Codex relies on them
 * (utils/absolute-path: `AbsolutePathBuf::try_from` expands `~`, resolves against the working directory and
 * drops `.`/`..` lexically; `Path::file_name`, `Path::file_stem`). Pure: the home and cwd are passed in.
 */

/** Lexically normalize an absolute path: collapse `//`, drop `.`, pop on `..` (never above `/`). */
export function normalizeAbsolute(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return "/" + out.join("/");
}

/** `AbsolutePathBuf::from_absolute_path`: `~` / `~/x` expand to home, relative paths resolve against cwd. */
export function absolutize(raw: string, cwd: string, home?: string): string {
  let p = raw;
  if (home !== undefined && p.startsWith("~")) {
    const rest = p.slice(1);
    if (rest === "") p = home;
    else if (rest.startsWith("/")) p = home.replace(/\/+$/, "") + "/" + rest.replace(/^\/+/, "");
  }
  return normalizeAbsolute(p.startsWith("/") ? p : cwd.replace(/\/+$/, "") + "/" + p);
}

/** Rust `Path::file_name`: the last normal component; `undefined` for `/`, `..` and paths ending in `..`. */
export function fileName(path: string): string | undefined {
  const parts = path.split("/").filter((p) => p !== "" && p !== ".");
  // A leading "." is kept by Rust's components(), but it is never the file name.
  const last = parts[parts.length - 1];
  if (last === undefined || last === "..") return undefined;
  return last;
}

/** Basename of a normalized absolute path ("" for "/"). */
export function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** Rust `Path::file_stem`. */
export function fileStem(path: string): string | undefined {
  const name = fileName(path);
  if (name === undefined) return undefined;
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? name : name.slice(0, dot);
}
