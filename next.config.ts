import type { NextConfig } from "next";
import { NO_CONTENT_POLICY, securityHeaders } from "./lib/auth/security-headers";

// The proxy (proxy.ts) sets the security headers on every response it sees; these three routes bypass it.
const UNPROXIED_ROUTES = ["/api/datasets", "/api/runs/import", "/api/optimizations/import"];

const nextConfig: NextConfig = {
  experimental: {
    // Skill documents are uploaded through server actions.
    serverActions: { bodySizeLimit: "10mb" },
  },
  poweredByHeader: false,
  async headers() {
    const headers = Object.entries(securityHeaders(NO_CONTENT_POLICY)).map(([key, value]) => ({ key, value }));
    return UNPROXIED_ROUTES.map((source) => ({ source, headers }));
  },
};

export default nextConfig;
