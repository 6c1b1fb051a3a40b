/** A short device label from a User-Agent: "Chrome on Android", "Safari on iPhone"… */
export function describeDevice(userAgent: string | null | undefined): string {
  if (!userAgent) return "unknown device";
  const ua = userAgent;
  const os = /iPhone/.test(ua)
    ? "iPhone"
    : /iPad/.test(ua)
      ? "iPad"
      : /Android/.test(ua)
        ? "Android"
        : /Windows/.test(ua)
          ? "Windows"
          : /Mac OS X|Macintosh/.test(ua)
            ? "Mac"
            : /Linux/.test(ua)
              ? "Linux"
              : null;
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /Firefox\//.test(ua)
      ? "Firefox"
      : /Chrome\/|Chromium\//.test(ua)
        ? "Chrome"
        : /Safari\//.test(ua)
          ? "Safari"
          : /node|undici|curl/i.test(ua)
            ? "script"
            : null;
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? os ?? ua.slice(0, 40);
}

/** Phones and tablets count as the "phone" channel. */
export function isPhone(userAgent: string | null | undefined): boolean {
  return !!userAgent && /Mobi|Android|iPhone|iPad/.test(userAgent);
}
