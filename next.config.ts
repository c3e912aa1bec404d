import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Skill documents and datasets are uploaded through server actions.
  experimental: { serverActions: { bodySizeLimit: "10mb" } },
  poweredByHeader: false,
};

export default nextConfig;
