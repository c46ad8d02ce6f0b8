// Apart from the dialog, so that the list page checks the limit without loading the dialog.
export type DeleteTarget = { id: string; patientNo: string };

/** The most patients one delete call takes. */
export const MAX_DELETE = 200;
