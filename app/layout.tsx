import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: "Skillboard",
  description: "Evaluate skill documents for LLM agents on question-answering datasets",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <header className="site-header">
          <strong>Skillboard</strong>
        </header>
        <main>{children}</main>
      </body>
    </html>
  );
}
