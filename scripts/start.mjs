// Production start command (`npm start`): the host and token policy, then `next start` (see launch-next.mjs).
import { launchNext } from "./launch-next.mjs";

launchNext("start");
