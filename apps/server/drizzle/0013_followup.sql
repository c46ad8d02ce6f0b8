CREATE TABLE "followup_assignments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"source" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"stopped_reason" text,
	"anchor_date" date,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "followup_assignments_source_ck" CHECK ("followup_assignments"."source" in ('rule', 'manual')),
	CONSTRAINT "followup_assignments_status_ck" CHECK ("followup_assignments"."status" in ('active', 'stopped'))
);
--> statement-breakpoint
CREATE TABLE "followup_contacts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"task_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"contacted_at" timestamp with time zone NOT NULL,
	"method" text NOT NULL,
	"outcome" text NOT NULL,
	"note" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "followup_contacts_outcome_ck" CHECK ("followup_contacts"."outcome" in ('reached', 'no_answer', 'wrong_number', 'refused', 'deceased'))
);
--> statement-breakpoint
CREATE TABLE "followup_plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"kind" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"anchor" jsonb,
	"period" jsonb,
	"assign_mode" text DEFAULT 'manual' NOT NULL,
	"rule" jsonb,
	"remind_days_before" integer DEFAULT 0 NOT NULL,
	"default_owner_id" uuid,
	"row_version" integer DEFAULT 1 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "followup_plans_kind_ck" CHECK ("followup_plans"."kind" in ('relative', 'fixed')),
	CONSTRAINT "followup_plans_status_ck" CHECK ("followup_plans"."status" in ('draft', 'active', 'stopped')),
	CONSTRAINT "followup_plans_assign_mode_ck" CHECK ("followup_plans"."assign_mode" in ('manual', 'auto'))
);
--> statement-breakpoint
CREATE TABLE "followup_tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"visit_id" uuid NOT NULL,
	"assignment_id" uuid NOT NULL,
	"due_date" date NOT NULL,
	"window_start" date NOT NULL,
	"window_end" date NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"owner_id" uuid,
	"closed_at" timestamp with time zone,
	"closed_by" uuid,
	"closed_reason" text,
	"reminded_at" timestamp with time zone,
	"row_version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "followup_tasks_status_ck" CHECK ("followup_tasks"."status" in ('open', 'done', 'lost', 'cancelled')),
	CONSTRAINT "followup_tasks_window_ck" CHECK ("followup_tasks"."window_start" <= "followup_tasks"."due_date" and "followup_tasks"."due_date" <= "followup_tasks"."window_end")
);
--> statement-breakpoint
CREATE TABLE "followup_visits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"name" text NOT NULL,
	"offset" integer,
	"offset_unit" text,
	"fixed_date" date,
	"window_before" integer DEFAULT 0 NOT NULL,
	"window_after" integer DEFAULT 0 NOT NULL,
	"form_keys" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"contact_method" text DEFAULT 'phone' NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "followup_visits_window_ck" CHECK ("followup_visits"."window_before" >= 0 and "followup_visits"."window_after" >= 0)
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"project_id" uuid,
	"kind" text NOT NULL,
	"entity_id" uuid,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"link" text,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scheduled_jobs" (
	"name" text PRIMARY KEY NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	"locked_by" text,
	"last_started_at" timestamp with time zone,
	"last_finished_at" timestamp with time zone,
	"last_error" text,
	"run_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "form_records" ADD COLUMN "followup_task_id" uuid;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "death_date" date;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "death_cause" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "followup_lost_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "followup_lost_reason" text;--> statement-breakpoint
ALTER TABLE "followup_assignments" ADD CONSTRAINT "followup_assignments_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "followup_assignments" ADD CONSTRAINT "followup_assignments_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "followup_assignments" ADD CONSTRAINT "followup_assignments_plan_id_followup_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."followup_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "followup_assignments" ADD CONSTRAINT "followup_assignments_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "followup_assignments" ADD CONSTRAINT "followup_assignments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "followup_contacts" ADD CONSTRAINT "followup_contacts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "followup_contacts" ADD CONSTRAINT "followup_contacts_task_id_followup_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."followup_tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "followup_contacts" ADD CONSTRAINT "followup_contacts_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "followup_contacts" ADD CONSTRAINT "followup_contacts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "followup_plans" ADD CONSTRAINT "followup_plans_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "followup_plans" ADD CONSTRAINT "followup_plans_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "followup_plans" ADD CONSTRAINT "followup_plans_default_owner_id_users_id_fk" FOREIGN KEY ("default_owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "followup_plans" ADD CONSTRAINT "followup_plans_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "followup_plans" ADD CONSTRAINT "followup_plans_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "followup_tasks" ADD CONSTRAINT "followup_tasks_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "followup_tasks" ADD CONSTRAINT "followup_tasks_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "followup_tasks" ADD CONSTRAINT "followup_tasks_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "followup_tasks" ADD CONSTRAINT "followup_tasks_plan_id_followup_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."followup_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "followup_tasks" ADD CONSTRAINT "followup_tasks_visit_id_followup_visits_id_fk" FOREIGN KEY ("visit_id") REFERENCES "public"."followup_visits"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "followup_tasks" ADD CONSTRAINT "followup_tasks_assignment_id_followup_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."followup_assignments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "followup_tasks" ADD CONSTRAINT "followup_tasks_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "followup_tasks" ADD CONSTRAINT "followup_tasks_closed_by_users_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "followup_visits" ADD CONSTRAINT "followup_visits_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "followup_visits" ADD CONSTRAINT "followup_visits_plan_id_followup_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."followup_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "followup_assignments_plan_patient_uq" ON "followup_assignments" USING btree ("plan_id","patient_id");--> statement-breakpoint
CREATE INDEX "followup_assignments_patient_idx" ON "followup_assignments" USING btree ("tenant_id","patient_id");--> statement-breakpoint
CREATE INDEX "followup_contacts_task_idx" ON "followup_contacts" USING btree ("task_id","contacted_at");--> statement-breakpoint
CREATE UNIQUE INDEX "followup_plans_project_name_uq" ON "followup_plans" USING btree ("project_id","name") WHERE "followup_plans"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "followup_plans_tenant_project_idx" ON "followup_plans" USING btree ("tenant_id","project_id");--> statement-breakpoint
CREATE UNIQUE INDEX "followup_tasks_assignment_visit_uq" ON "followup_tasks" USING btree ("assignment_id","visit_id");--> statement-breakpoint
CREATE INDEX "followup_tasks_worklist_idx" ON "followup_tasks" USING btree ("tenant_id","project_id","status","window_end");--> statement-breakpoint
CREATE INDEX "followup_tasks_owner_idx" ON "followup_tasks" USING btree ("tenant_id","project_id","owner_id","status");--> statement-breakpoint
CREATE INDEX "followup_tasks_patient_idx" ON "followup_tasks" USING btree ("tenant_id","patient_id","due_date");--> statement-breakpoint
CREATE INDEX "followup_tasks_remind_idx" ON "followup_tasks" USING btree ("window_start") WHERE "followup_tasks"."status" = 'open' and "followup_tasks"."reminded_at" is null;--> statement-breakpoint
CREATE INDEX "followup_visits_plan_idx" ON "followup_visits" USING btree ("plan_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_user_kind_entity_uq" ON "notifications" USING btree ("user_id","kind","entity_id");--> statement-breakpoint
CREATE INDEX "notifications_user_unread_idx" ON "notifications" USING btree ("user_id","created_at") WHERE "notifications"."read_at" is null;--> statement-breakpoint
CREATE INDEX "notifications_user_created_idx" ON "notifications" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "form_records" ADD CONSTRAINT "form_records_followup_task_id_followup_tasks_id_fk" FOREIGN KEY ("followup_task_id") REFERENCES "public"."followup_tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "form_records_followup_task_idx" ON "form_records" USING btree ("followup_task_id") WHERE "form_records"."followup_task_id" is not null;--> statement-breakpoint
-- Contact attempts are a record of what happened: append-only, like the audit trail.
CREATE OR REPLACE FUNCTION followup_contacts_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'followup_contacts is append-only' USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER followup_contacts_no_change BEFORE UPDATE OR DELETE ON followup_contacts
  FOR EACH ROW EXECUTE FUNCTION followup_contacts_append_only();--> statement-breakpoint
CREATE TRIGGER followup_contacts_no_truncate BEFORE TRUNCATE ON followup_contacts
  FOR EACH STATEMENT EXECUTE FUNCTION followup_contacts_append_only();
