import Markdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import styles from "./skill-page.module.css";

/**
 * Images become their alt text: a skill is text for a model, and a remote image would make every visit
 * to this page fetch a URL the skill's author chose.
 */
const components: Components = {
  img: ({ alt, src }) => <span className={styles.imagePlaceholder}>[image: {alt || (typeof src === "string" ? src : "")}]</span>,
};

/**
 * A skill document as rendered markdown (GitHub flavour). Raw HTML in it is never rendered: react-markdown
 * leaves HTML out unless a plugin such as rehype-raw is added, and none is, so a <script> stays inert.
 */
export function SkillMarkdown({ text }: { text: string }) {
  return (
    <div className={styles.markdown}>
      <Markdown remarkPlugins={[remarkGfm]} components={components}>
        {text}
      </Markdown>
    </div>
  );
}
