import type { Metadata } from "next";
import Link from "@/app/_components/link";
import type { ReactNode } from "react";
import "./globals.css";
import { Providers } from "./providers";

export const metadata: Metadata = {
  title: { default: "Skillboard", template: "%s · Skillboard" },
  description: "Evaluate skill documents for LLM agents on question-answering datasets",
};

// Every page is rendered per request: its scripts carry the nonce of that response's Content-Security-Policy
// (proxy.ts), which a page prerendered at build time could not know, the not-found page included.
export const dynamic = "force-dynamic";

const NAV = [
  { href: "/skills", label: "Skills" },
  { href: "/datasets", label: "Datasets" },
  { href: "/runs", label: "Runs" },
  { href: "/compare", label: "Compare" },
  { href: "/optimize", label: "Optimise" },
];

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <header className="site-header">
          <Link href="/" className="brand">
            Skillboard
          </Link>
          <nav aria-label="Main">
            {NAV.map((item) => (
              <Link key={item.href} href={item.href}>
                {item.label}
              </Link>
            ))}
          </nav>
        </header>
        <Providers>
          <main>{children}</main>
        </Providers>
      </body>
    </html>
  );
}
