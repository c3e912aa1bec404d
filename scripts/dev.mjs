// Development server (`npm run dev`): the same host and token policy as `npm start`, then `next dev` (see launch-next.mjs).
import { launchNext } from "./launch-next.mjs";

launchNext("dev");
