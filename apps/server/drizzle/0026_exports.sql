CREATE TABLE "export_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"root_project_id" uuid NOT NULL,
	"center_id" uuid,
	"created_by" uuid NOT NULL,
	"job_id" uuid,
	"query_id" uuid,
	"query_name" text,
	"cohort" jsonb,
	"format" text NOT NULL,
	"value_mode" text NOT NULL,
	"forms" jsonb,
	"deidentified" boolean NOT NULL,
	"drop_free_text" boolean DEFAULT false NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"row_count" integer,
	"file_key" text,
	"file_name" text,
	"file_size" bigint,
	"sha256" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	CONSTRAINT "export_jobs_state_ck" CHECK ("export_jobs"."state" in ('queued', 'running', 'completed', 'failed', 'cancelled', 'expired')),
	CONSTRAINT "export_jobs_format_ck" CHECK ("export_jobs"."format" in ('csv', 'xlsx', 'spss', 'stata', 'sas', 'r', 'odm')),
	CONSTRAINT "export_jobs_value_mode_ck" CHECK ("export_jobs"."value_mode" in ('codes', 'labels'))
);
--> statement-breakpoint
CREATE TABLE "export_pseudonyms" (
	"patient_id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"pseudonym" text NOT NULL,
	"shift_days" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "export_pseudonyms_shift_ck" CHECK ("export_pseudonyms"."shift_days" between 0 and 364)
);
--> statement-breakpoint
ALTER TABLE "export_jobs" ADD CONSTRAINT "export_jobs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "export_jobs" ADD CONSTRAINT "export_jobs_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "export_jobs" ADD CONSTRAINT "export_jobs_root_project_id_projects_id_fk" FOREIGN KEY ("root_project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "export_jobs" ADD CONSTRAINT "export_jobs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "export_jobs" ADD CONSTRAINT "export_jobs_query_id_retrieval_queries_id_fk" FOREIGN KEY ("query_id") REFERENCES "public"."retrieval_queries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "export_pseudonyms" ADD CONSTRAINT "export_pseudonyms_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "export_pseudonyms" ADD CONSTRAINT "export_pseudonyms_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "export_pseudonyms" ADD CONSTRAINT "export_pseudonyms_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "export_jobs_project_idx" ON "export_jobs" USING btree ("tenant_id","project_id","created_at");--> statement-breakpoint
CREATE INDEX "export_jobs_expiry_idx" ON "export_jobs" USING btree ("expires_at") WHERE "export_jobs"."state" = 'completed';--> statement-breakpoint
CREATE UNIQUE INDEX "export_pseudonyms_project_pseudonym_uq" ON "export_pseudonyms" USING btree ("project_id","pseudonym");