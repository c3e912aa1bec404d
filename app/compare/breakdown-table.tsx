import type { FieldBreakdown } from "@/lib/compare";
import { formatScore, formatSigned } from "@/app/_lib/format";
import styles from "./compare.module.css";

/** EM and F1 by metadata value (category, difficulty…), largest EM difference first. */
export function BreakdownTables({ fields, referenceId, otherId }: { fields: FieldBreakdown[]; referenceId: number; otherId: number }) {
  return (
    <>
      {fields.map((field) => (
        <div key={field.field} className={styles.breakdown}>
          <h3>By {field.field}</h3>
          <table aria-label={`Metrics by ${field.field}`}>
            <thead>
              <tr>
                <th>{field.field}</th><th className="num">Items</th><th className="num">EM #{referenceId}</th><th className="num">EM #{otherId}</th>
                <th className="num">ΔEM</th><th className="num">F1 #{referenceId}</th><th className="num">F1 #{otherId}</th>
              </tr>
            </thead>
            <tbody>
              {field.rows.map((row) => (
                <tr key={row.value}>
                  <td>{row.value}</td>
                  <td className="num">{row.n}</td>
                  <td className="num">{formatScore(row.referenceEm)}</td>
                  <td className="num">{formatScore(row.otherEm)}</td>
                  <td className={`num ${row.emDifference > 0 ? styles.up : row.emDifference < 0 ? styles.down : ""}`}>{formatSigned(row.emDifference)}</td>
                  <td className="num">{formatScore(row.referenceF1)}</td>
                  <td className="num">{formatScore(row.otherF1)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </>
  );
}
