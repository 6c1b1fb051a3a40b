"use client";
import { useEffect, useState } from "react";
import QRCode from "qrcode";

/** A link with its QR code, so a phone can scan it off this screen. */
export function QrLink({ url, label }: { url: string; label: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    QRCode.toDataURL(url, { margin: 1, width: 220 }).then(setSrc, () => setSrc(null));
  }, [url]);
  return (
    <div className="stack" style={{ gap: 8 }}>
      {/* eslint-disable-next-line @next/next/no-img-element */}
      {src ? <img src={src} alt={`QR code: ${label}`} width={220} height={220} /> : null}
      <input readOnly value={url} aria-label={label} onFocus={(e) => e.currentTarget.select()} />
    </div>
  );
}
