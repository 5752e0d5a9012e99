import type { jsPDF as JsPDFType } from 'jspdf';
import type { Styles } from 'jspdf-autotable';
import type { ExportField } from '@/api/contract';
import { headerLines, toExportTable, type ExportContext, type ExportRow } from './format';

type JsPDFModule = typeof import('jspdf');
type AutoTableModule = typeof import('jspdf-autotable');

/** jspdf's Node build is CommonJS: its API may sit on `default` rather than on the namespace. */
async function loadLibs(): Promise<{ JsPDF: typeof JsPDFType; autoTable: AutoTableModule['autoTable'] }> {
  const [pdfMod, tableMod] = await Promise.all([import('jspdf'), import('jspdf-autotable')]);
  const pdf = pdfMod as JsPDFModule & { default?: Partial<JsPDFModule> };
  const JsPDF = pdf.jsPDF ?? pdf.default?.jsPDF;
  const table = tableMod as AutoTableModule & { default?: Partial<AutoTableModule> };
  const autoTable = table.autoTable ?? table.default?.autoTable;
  if (!JsPDF || !autoTable) throw new Error('PDF export: jspdf / jspdf-autotable could not be loaded');
  return { JsPDF, autoTable };
}

const MARGIN = 28; // pt (~10 mm)
const FONT_SIZE = 7.5;

/** Builds the .pdf: landscape A4, title, 'On … by …', 'Duration: …', then the table; 'Page i of n' in the footer. */
export async function buildPdf(fields: ExportField[], rows: ExportRow[], ctx: ExportContext): Promise<Uint8Array> {
  const { JsPDF, autoTable } = await loadLibs();
  const { headers, body } = toExportTable(fields, rows, 'pdf');
  const [title, byLine, durationLine] = headerLines(ctx);

  const doc = new JsPDF({ orientation: 'landscape', unit: 'pt', format: 'a4', compress: true });
  doc.setProperties({ title: ctx.title, author: ctx.username, creator: 'Console export' });
  doc.setCreationDate(ctx.now);

  let y = MARGIN + 8;
  doc.setFont('helvetica', 'bold');
  doc.setFontSize(14);
  doc.text(title, MARGIN, y);
  doc.setFont('helvetica', 'normal');
  doc.setFontSize(9);
  y += 16;
  doc.text(byLine, MARGIN, y);
  y += 12;
  doc.text(durationLine, MARGIN, y);
  y += 10;

  const columnStyles: Record<string, Partial<Styles>> = {};
  fields.forEach((f, i) => {
    if (f.type === 'DOUBLE') columnStyles[String(i)] = { halign: 'right' };
  });

  autoTable(doc, {
    head: [headers],
    body,
    startY: y,
    theme: 'grid',
    margin: { top: MARGIN, right: MARGIN, bottom: MARGIN + 8, left: MARGIN },
    styles: { font: 'helvetica', fontSize: FONT_SIZE, cellPadding: 2.5, overflow: 'linebreak', valign: 'top', lineWidth: 0.3 },
    headStyles: { fontStyle: 'bold', fillColor: [229, 231, 235], textColor: 20, halign: 'left' },
    columnStyles,
    // the header cells of right-aligned columns align with their numbers
    didParseCell: (data) => {
      if (data.section === 'head' && fields[data.column.index]?.type === 'DOUBLE') data.cell.styles.halign = 'right';
    },
  });

  const pages = doc.getNumberOfPages();
  const { width, height } = doc.internal.pageSize;
  doc.setFont('helvetica', 'normal');
  doc.setFontSize(7);
  for (let p = 1; p <= pages; p++) {
    doc.setPage(p);
    doc.text(`Page ${p} of ${pages}`, width - MARGIN, height - MARGIN / 2, { align: 'right' });
  }

  return new Uint8Array(doc.output('arraybuffer'));
}
