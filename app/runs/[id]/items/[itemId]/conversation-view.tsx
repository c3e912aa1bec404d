import { splitAnswerTags } from "@/lib/eval/answer-highlight";
import { buildRefinementPrompt } from "@/lib/prompts/user-prompt";
import { goldsInPassage, parseUserPrompt } from "@/lib/prompts/parse-user-prompt";
import type { ConversationEntry } from "@/lib/runs/types";
import { formatCount } from "@/app/_lib/format";
import { clipSegments, MoreCharacters, ShownText } from "../../../../_components/shown-text";
import { visibleText } from "@/lib/text/visible-text";
import { CopyButton } from "./copy-button";
import type { TextLimit } from "./item-panels";
import styles from "./item.module.css";

interface ConversationProps {
  systemPrompt: string;
  userPrompt: string | null;
  conversation: ConversationEntry[];
  question: string;
  golds: string[];
  /** Refinement requests are rebuilt from the previous answer; only the chat backends send them. */
  showRefinements: boolean;
  texts: TextLimit;
}

/**
 * A copy button, only when the whole text is on the page: it carries its text to the browser, so a cut text would
 * cost as much as showing it (and copying part of a prompt would mislead). "show all" brings it back.
 */
function CopyWhole({ text, label, texts }: { text: string; label: string; texts: TextLimit }) {
  return texts.max === undefined || text.length <= texts.max ? <CopyButton text={text} label={label} /> : null;
}

/** The whole exchange, turn by turn. Everything from the model or the dataset is rendered as text, never as HTML. */
export function ConversationView({ systemPrompt, userPrompt, conversation, question, golds, showRefinements, texts }: ConversationProps) {
  const shown = (text: string) => <ShownText text={text} max={texts.max} moreHref={texts.showAllHref} />;
  const turns = conversation.filter((entry): entry is Extract<ConversationEntry, { type: "message" }> => "type" in entry);
  const records = conversation.filter((entry): entry is Extract<ConversationEntry, { role: "system" }> => "role" in entry);
  return (
    <section className={`card ${styles.section}`} aria-labelledby="conversation-heading">
      <h2 id="conversation-heading">Conversation</h2>
      <details className={styles.block}>
        <summary>
          System prompt <span className="muted">({formatCount(Array.from(systemPrompt).length)} characters)</span>
        </summary>
        <div className={styles.blockActions}><CopyWhole text={systemPrompt} label="Copy system prompt" texts={texts} /></div>
        <pre className={styles.pre}>{shown(systemPrompt)}</pre>
      </details>

      {!userPrompt ? (
        // Timeouts and unexpected errors are stored without a prompt, as the seed stores them.
        <p className="muted">No prompt was stored for this item (it timed out or failed outside the model call).</p>
      ) : (
        <UserPrompt prompt={userPrompt} question={question} golds={golds} texts={texts} />
      )}

      {turns.map((turn, index) => {
        const previous = turns[index - 1];
        return (
          <div key={turn.turn} className={styles.turn}>
            {showRefinements && previous ? (
              <details className={styles.block}>
                <summary>Refinement request before turn {turn.turn}</summary>
                <pre className={styles.pre}>{shown(buildRefinementPrompt(previous.content))}</pre>
              </details>
            ) : null}
            <div className={styles.blockHead}>
              <h3>Model response · turn {turn.turn}</h3>
              <CopyWhole text={turn.content} label="Copy response" texts={texts} />
            </div>
            <pre className={`${styles.pre} ${styles.response}`} data-testid="model-response">
              <Response content={turn.content} texts={texts} />
            </pre>
          </div>
        );
      })}
      {turns.length === 0 ? <p className="muted">No model response was recorded (see the fail reason above).</p> : null}

      {records.map((record, index) => (
        <div key={index} className={styles.turn}>
          <div className={styles.blockHead}>
            <h3>Evaluation record</h3>
          </div>
          <pre className={styles.pre}>{shown(record.content)}</pre>
        </div>
      ))}
    </section>
  );
}

/** A response with its answer tags marked, cut like any text. */
function Response({ content, texts }: { content: string; texts: TextLimit }) {
  const clipped = clipSegments(splitAnswerTags(content), texts.max);
  return (
    <>
      {clipped.segments.map((segment, at) => (
        <span key={at} className={segment.kind === "text" ? undefined : styles[segment.kind]}>{visibleText(segment.text)}</span>
      ))}
      {clipped.hidden > 0 ? <MoreCharacters hidden={clipped.hidden} moreHref={texts.showAllHref} /> : null}
    </>
  );
}

function UserPrompt({ prompt, question, golds, texts }: { prompt: string; question: string; golds: string[]; texts: TextLimit }) {
  const shown = (text: string) => <ShownText text={text} max={texts.max} moreHref={texts.showAllHref} />;
  const parsed = parseUserPrompt(prompt, question);
  const marked = parsed?.passages.map((passage) => goldsInPassage(passage, golds)) ?? [];
  const withGold = marked.filter((found) => found.length > 0).length;
  return (
    <div className={styles.turn}>
      <div className={styles.blockHead}>
        <h3>User prompt</h3>
        <CopyWhole text={prompt} label="Copy prompt" texts={texts} />
      </div>
      {parsed === null ? (
        <pre className={styles.pre}>{shown(prompt)}</pre>
      ) : (
        <>
          <h4 className={styles.subhead}>
            Context
            {parsed.passages.length > 0 ? (
              <span className="muted">
                {" "}· {parsed.passages.length} passages, {withGold} containing a gold answer
              </span>
            ) : null}
          </h4>
          {parsed.passages.length > 0 ? (
            <ol className={styles.passages}>
              {parsed.passages.map((passage, index) => {
                const found = marked[index] ?? [];
                return (
                  <li key={index} className={found.length > 0 ? `${styles.passage} ${styles.goldPassage}` : styles.passage}>
                    <div className={styles.passageTitle}>
                      <span className={styles.passageNumber}>{index + 1}</span>
                      <span>{passage.title ? shown(passage.title) : <span className="muted">(no title)</span>}</span>
                      {found.length > 0 ? <span className={styles.goldTag}>contains gold: {shown(found.join(", "))}</span> : null}
                    </div>
                    {passage.text ? <p className={styles.passageText}>{shown(passage.text)}</p> : null}
                  </li>
                );
              })}
            </ol>
          ) : parsed.context ? (
            <pre className={styles.pre}>{shown(parsed.context)}</pre>
          ) : (
            <p className="muted">(empty context)</p>
          )}
          <h4 className={styles.subhead}>Question</h4>
          <pre className={styles.pre}>{shown(parsed.question)}</pre>
          {parsed.extra.map((section) => (
            <div key={section.heading}>
              <h4 className={styles.subhead}>{shown(section.heading)}</h4>
              <pre className={styles.pre}>{shown(section.body)}</pre>
            </div>
          ))}
          <details className={styles.block}>
            <summary>The prompt exactly as sent</summary>
            <pre className={styles.pre}>{shown(prompt)}</pre>
          </details>
        </>
      )}
    </div>
  );
}
