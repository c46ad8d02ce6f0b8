CREATE TABLE "audit_seal_heads" (
	"tenant_key" text NOT NULL,
	"seq" bigint NOT NULL,
	"mac" text NOT NULL,
	"signed_at" timestamp with time zone NOT NULL,
	"signature" text NOT NULL,
	CONSTRAINT "audit_seal_heads_tenant_key_seq_pk" PRIMARY KEY("tenant_key","seq")
);
--> statement-breakpoint
CREATE TABLE "audit_seals" (
	"event_id" bigint PRIMARY KEY NOT NULL,
	"tx_id" "xid8" NOT NULL,
	"tenant_key" text NOT NULL,
	"seq" bigint NOT NULL,
	"prev_mac" text,
	"mac" text NOT NULL,
	"sealed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "project_id" uuid;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "tx_id" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_seals_tenant_seq_uq" ON "audit_seals" USING btree ("tenant_key","seq");--> statement-breakpoint
CREATE INDEX "audit_seals_tx_id_idx" ON "audit_seals" USING btree ("tx_id","event_id");--> statement-breakpoint
CREATE INDEX "audit_events_tenant_project_id_idx" ON "audit_events" USING btree ("tenant_id","project_id","id");--> statement-breakpoint
CREATE INDEX "audit_events_tx_id_idx" ON "audit_events" USING btree ("tx_id","id");