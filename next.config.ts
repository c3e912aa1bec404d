import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  experimental: {
    // Skill documents are uploaded through server actions.
    serverActions: { bodySizeLimit: "10mb" },
  },
  poweredByHeader: false,
};

export default nextConfig;
