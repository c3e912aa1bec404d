import { splitAnswerTags } from "@/lib/eval/answer-highlight";
import { buildRefinementPrompt } from "@/lib/prompts/user-prompt";
import { goldsInPassage, parseUserPrompt } from "@/lib/prompts/parse-user-prompt";
import type { ConversationEntry } from "@/lib/runs/types";
import { formatCount } from "@/app/_lib/format";
import { CopyButton } from "./copy-button";
import styles from "./item.module.css";

interface ConversationProps {
  systemPrompt: string;
  userPrompt: string | null;
  conversation: ConversationEntry[];
  question: string;
  golds: string[];
  /** Refinement requests are rebuilt from the previous answer; only the chat backends send them. */
  showRefinements: boolean;
}

/** The whole exchange, turn by turn. Everything from the model or the dataset is rendered as text, never as HTML. */
export function ConversationView({ systemPrompt, userPrompt, conversation, question, golds, showRefinements }: ConversationProps) {
  const turns = conversation.filter((entry): entry is Extract<ConversationEntry, { type: "message" }> => "type" in entry);
  const records = conversation.filter((entry): entry is Extract<ConversationEntry, { role: "system" }> => "role" in entry);
  return (
    <section className={`card ${styles.section}`} aria-labelledby="conversation-heading">
      <h2 id="conversation-heading">Conversation</h2>
      <details className={styles.block}>
        <summary>
          System prompt <span className="muted">({formatCount(Array.from(systemPrompt).length)} characters)</span>
        </summary>
        <div className={styles.blockActions}><CopyButton text={systemPrompt} label="Copy system prompt" /></div>
        <pre className={styles.pre}>{systemPrompt}</pre>
      </details>

      {!userPrompt ? (
        // Timeouts and unexpected errors are stored without a prompt, as the seed stores them.
        <p className="muted">No prompt was stored for this item (it timed out or failed outside the model call).</p>
      ) : (
        <UserPrompt prompt={userPrompt} question={question} golds={golds} />
      )}

      {turns.map((turn, index) => {
        const previous = turns[index - 1];
        return (
          <div key={turn.turn} className={styles.turn}>
            {showRefinements && previous ? (
              <details className={styles.block}>
                <summary>Refinement request before turn {turn.turn}</summary>
                <pre className={styles.pre}>{buildRefinementPrompt(previous.content)}</pre>
              </details>
            ) : null}
            <div className={styles.blockHead}>
              <h3>Model response · turn {turn.turn}</h3>
              <CopyButton text={turn.content} label="Copy response" />
            </div>
            <pre className={`${styles.pre} ${styles.response}`} data-testid="model-response">
              {splitAnswerTags(turn.content).map((segment, at) => (
                <span key={at} className={segment.kind === "text" ? undefined : styles[segment.kind]}>{segment.text}</span>
              ))}
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
          <pre className={styles.pre}>{record.content}</pre>
        </div>
      ))}
    </section>
  );
}

function UserPrompt({ prompt, question, golds }: { prompt: string; question: string; golds: string[] }) {
  const parsed = parseUserPrompt(prompt, question);
  const marked = parsed?.passages.map((passage) => goldsInPassage(passage, golds)) ?? [];
  const withGold = marked.filter((found) => found.length > 0).length;
  return (
    <div className={styles.turn}>
      <div className={styles.blockHead}>
        <h3>User prompt</h3>
        <CopyButton text={prompt} label="Copy prompt" />
      </div>
      {parsed === null ? (
        <pre className={styles.pre}>{prompt}</pre>
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
                      <span>{passage.title || <span className="muted">(no title)</span>}</span>
                      {found.length > 0 ? <span className={styles.goldTag}>contains gold: {found.join(", ")}</span> : null}
                    </div>
                    {passage.text ? <p className={styles.passageText}>{passage.text}</p> : null}
                  </li>
                );
              })}
            </ol>
          ) : parsed.context ? (
            <pre className={styles.pre}>{parsed.context}</pre>
          ) : (
            <p className="muted">(empty context)</p>
          )}
          <h4 className={styles.subhead}>Question</h4>
          <pre className={styles.pre}>{parsed.question}</pre>
          {parsed.extra.map((section) => (
            <div key={section.heading}>
              <h4 className={styles.subhead}>{section.heading}</h4>
              <pre className={styles.pre}>{section.body}</pre>
            </div>
          ))}
          <details className={styles.block}>
            <summary>The prompt exactly as sent</summary>
            <pre className={styles.pre}>{prompt}</pre>
          </details>
        </>
      )}
    </div>
  );
}
